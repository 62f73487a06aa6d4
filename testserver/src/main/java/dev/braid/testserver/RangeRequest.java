package dev.braid.testserver;

/** What a {@code Range} header asks of content of a known size (RFC 9110 §14). */
sealed interface RangeRequest {
  RangeRequest WHOLE = new Whole();
  RangeRequest UNSATISFIABLE = new Unsatisfiable();

  /** No usable single range: serve everything with 200. */
  record Whole() implements RangeRequest {}

  /** A well-formed range starting at or past the end: 416. */
  record Unsatisfiable() implements RangeRequest {}

  /** Bytes {@code first..last} inclusive, already clamped to the content: 206. */
  record Span(long first, long last) implements RangeRequest {}

  /**
   * Parses {@code bytes=a-b}, {@code bytes=a-} and {@code bytes=-n}. Anything else, including
   * multiple ranges (we never send multipart), means {@link #WHOLE}, as a server may ignore Range.
   */
  static RangeRequest parse(String header, long size) {
    if (header == null || !header.regionMatches(true, 0, "bytes=", 0, 6)) {
      return WHOLE;
    }
    String spec = header.substring(6).trim();
    int dash = spec.indexOf('-');
    if (spec.indexOf(',') >= 0 || dash < 0) {
      return WHOLE;
    }
    String a = spec.substring(0, dash).trim();
    String b = spec.substring(dash + 1).trim();
    try {
      if (a.isEmpty()) {
        long suffix = digits(b);
        return suffix == 0 || size == 0 ? UNSATISFIABLE : new Span(Math.max(0, size - suffix), size - 1);
      }
      long first = digits(a);
      long last = b.isEmpty() ? Long.MAX_VALUE : digits(b);
      if (last < first) {
        return WHOLE;
      }
      return first >= size ? UNSATISFIABLE : new Span(first, Math.min(last, size - 1));
    } catch (NumberFormatException e) {
      return WHOLE;
    }
  }

  /** Parses a non-empty run of ASCII digits; Long.parseLong alone would accept signs. */
  private static long digits(String s) {
    if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new NumberFormatException(s);
    }
    return Long.parseLong(s);
  }
}
