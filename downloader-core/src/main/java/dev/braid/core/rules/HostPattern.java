package dev.braid.core.rules;

import java.util.Locale;
import java.util.Objects;

/**
 * Which hosts a rule is for. Four forms, from the most specific to the least:
 * <ul>
 *   <li>{@code example.com}: that host only;</li>
 *   <li>{@code *.example.com}: every subdomain of example.com, at any depth, not example.com itself;</li>
 *   <li>{@code .example.com}: example.com and every subdomain of it (as in {@code no_proxy});</li>
 *   <li>{@code *}: every host.</li>
 * </ul>
 * Between two domain patterns that both match, the longer domain is the more specific. Names are
 * compared without case and without a trailing dot; an IPv6 address is written without brackets.
 * The port of a URL plays no part.
 */
public final class HostPattern {
  private enum Kind { EXACT, SUBDOMAINS, DOMAIN, ANY }

  private final Kind kind;
  /** The host, or the domain without its leading {@code *.} or {@code .}; empty for {@code *}. */
  private final String name;
  private final String text;

  private HostPattern(Kind kind, String name, String text) {
    this.kind = kind;
    this.name = name;
    this.text = text;
  }

  /**
   * Reads one of the four forms.
   *
   * @throws IllegalArgumentException for an empty pattern, a {@code *} anywhere but the start, or a
   *     name with characters a host name cannot have
   */
  public static HostPattern parse(String pattern) {
    Objects.requireNonNull(pattern, "pattern");
    String p = pattern.strip().toLowerCase(Locale.ROOT);
    if (p.equals("*")) {
      return new HostPattern(Kind.ANY, "", "*");
    }
    Kind kind = Kind.EXACT;
    String name = p;
    if (p.startsWith("*.")) {
      kind = Kind.SUBDOMAINS;
      name = p.substring(2);
    } else if (p.startsWith(".")) {
      kind = Kind.DOMAIN;
      name = p.substring(1);
    }
    name = normalize(name);
    if (name.isEmpty() || !name.chars().allMatch(HostPattern::isHostChar) || name.startsWith(".") || name.contains("..")) {
      throw new IllegalArgumentException("not a host pattern: '" + pattern
          + "' (use example.com, *.example.com, .example.com or *)");
    }
    return new HostPattern(kind, name, kind == Kind.EXACT ? name : kind == Kind.SUBDOMAINS ? "*." + name : "." + name);
  }

  /** Whether this pattern covers {@code host} (a URL's host: a name or an IP address). */
  public boolean matches(String host) {
    String h = normalize(Objects.requireNonNull(host, "host"));
    return switch (kind) {
      case ANY -> true;
      case EXACT -> h.equals(name);
      case SUBDOMAINS -> h.endsWith("." + name);
      case DOMAIN -> h.equals(name) || h.endsWith("." + name);
    };
  }

  /**
   * Orders patterns by specificity: positive when this one is more specific than {@code other}.
   * Only meaningful between patterns that match the same host.
   */
  int compareSpecificity(HostPattern other) {
    if (kind == other.kind && (kind == Kind.EXACT || kind == Kind.ANY)) {
      return 0;
    }
    if (kind == Kind.EXACT || other.kind == Kind.ANY) {
      return 1;
    }
    if (other.kind == Kind.EXACT || kind == Kind.ANY) {
      return -1;
    }
    // two domain patterns: the longer domain is nearer to the host; for the same one, *. excludes more
    int byLength = Integer.compare(name.length(), other.name.length());
    return byLength != 0 ? byLength : Integer.compare(kind == Kind.SUBDOMAINS ? 1 : 0, other.kind == Kind.SUBDOMAINS ? 1 : 0);
  }

  private static String normalize(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return h.endsWith(".") && h.length() > 1 ? h.substring(0, h.length() - 1) : h;
  }

  private static boolean isHostChar(int c) {
    return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == ':';
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HostPattern p && p.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** The pattern as written in its normal form ({@code *.example.com}). */
  @Override
  public String toString() {
    return text;
  }
}
