package dev.braid.gui;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads URLs from what a person pastes, drops or keeps in a file, in the {@code braid get -i}
 * format: one file per line (several URLs on one line, separated by whitespace, are mirrors),
 * indented lines after it add options ({@code out=NAME}, {@code checksum=ALGO=HEX}, or another
 * URL as a mirror), blank lines and {@code #} comments are skipped.
 */
final class UrlListParser {
  private static final Pattern CHECKSUM = Pattern.compile("[a-z0-9-]+=[0-9a-f]+", Pattern.CASE_INSENSITIVE);

  private UrlListParser() {}

  /**
   * The entries of a list.
   *
   * @throws IllegalArgumentException naming the first bad line, e.g. one that is no http(s) URL
   */
  static List<AddRequest.Entry> parse(String text) {
    List<Builder> entries = new ArrayList<>();
    String[] lines = text.split("\\R");
    for (int i = 0; i < lines.length; i++) {
      String raw = lines[i];
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      boolean indented = Character.isWhitespace(raw.charAt(0));
      if (indented && !entries.isEmpty()) {
        option(entries.get(entries.size() - 1), line, i + 1);
        continue;
      }
      String[] urls = line.split("\\s+");
      Builder b = new Builder(checkUrl(urls[0], i + 1));
      for (int u = 1; u < urls.length; u++) {
        b.mirrors.add(checkUrl(urls[u], i + 1));
      }
      entries.add(b);
    }
    return entries.stream().map(Builder::build).toList();
  }

  /** The clipboard's text when it is one http(s) URL (the add dialog pre-fills it), else empty. */
  static Optional<String> singleUrl(String clipboard) {
    if (clipboard == null) {
      return Optional.empty();
    }
    String t = clipboard.strip();
    if (t.isEmpty() || t.contains("\n")) {
      return Optional.empty();
    }
    return isUrl(t) ? Optional.of(t) : Optional.empty();
  }

  /** Whether the text is an absolute http or https URL with a host. */
  static boolean isUrl(String text) {
    try {
      URI u = new URI(text);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      return (scheme.equals("http") || scheme.equals("https")) && u.getHost() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  /** Whether a checksum as typed has the {@code algo=hex} shape (the algorithm is checked by Braid). */
  static boolean isChecksum(String text) {
    return CHECKSUM.matcher(text.strip()).matches();
  }

  private static void option(Builder b, String line, int lineNo) {
    if (isUrl(line)) {
      b.mirrors.add(line);
      return;
    }
    int eq = line.indexOf('=');
    String key = eq < 0 ? line : line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
    String value = eq < 0 ? "" : line.substring(eq + 1).strip();
    switch (key) {
      case "out" -> b.fileName = value;
      case "checksum" -> {
        if (!isChecksum(value)) {
          throw new IllegalArgumentException("line " + lineNo + ": checksum must be ALGO=HEX, e.g. sha-256=9f86…");
        }
        b.checksum = value.toLowerCase(Locale.ROOT);
      }
      case "mirror" -> b.mirrors.add(checkUrl(value, lineNo));
      default -> throw new IllegalArgumentException("line " + lineNo + ": unknown option '" + key + "' (out=, checksum=, or a mirror URL)");
    }
  }

  private static String checkUrl(String text, int lineNo) {
    if (!isUrl(text)) {
      throw new IllegalArgumentException("line " + lineNo + ": not an http(s) URL: " + text);
    }
    return text;
  }

  private static final class Builder {
    final String url;
    final List<String> mirrors = new ArrayList<>();
    String checksum;
    String fileName;

    Builder(String url) {
      this.url = url;
    }

    AddRequest.Entry build() {
      return new AddRequest.Entry(url, mirrors, checksum, fileName);
    }
  }
}
