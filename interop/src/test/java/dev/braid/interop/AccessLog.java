package dev.braid.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A server's access log in the tab-separated format {@link ApacheServer} configures, read back so
 * that a test can tell what went over the wire (which status a ranged request got, which validator
 * the server sent) from the server's own account.
 */
record AccessLog(List<Entry> entries) {
  /** One finished request. Header fields the request or response did not carry are {@code "-"}. */
  record Entry(long startMillis, String protocol, String path, int status, String range, String ifRange,
      String etag, String contentEncoding, long bytesSent) {
    boolean ranged() {
      return !"-".equals(range);
    }

    boolean weakEtag() {
      return etag.startsWith("W/");
    }

    static Entry parse(String line) {
      String[] f = line.split("\t", -1);
      if (f.length != 9) {
        throw new IllegalArgumentException("not an access log line of the configured format: " + line);
      }
      return new Entry(Long.parseLong(f[0]), f[1], f[2], Integer.parseInt(f[3]), unescape(f[4]), unescape(f[5]),
          unescape(f[6]), f[7], Long.parseLong(f[8]));
    }

    /** Apache writes a quote inside a logged header as {@code \"}. */
    private static String unescape(String s) {
      return s.replace("\\\"", "\"");
    }

    @Override
    public String toString() {
      return startMillis + " " + protocol + " " + path + " " + status + " range=" + range + " if-range=" + ifRange
          + " etag=" + etag + " encoding=" + contentEncoding + " sent=" + bytesSent;
    }
  }

  static AccessLog read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return new AccessLog(List.of());
    }
    return new AccessLog(Files.readAllLines(file, StandardCharsets.UTF_8).stream()
        .filter(l -> !l.isBlank()).map(Entry::parse).toList());
  }

  /** The requests for {@code path} (starting with '/'). */
  List<Entry> forPath(String path) {
    return entries.stream().filter(e -> e.path().equals(path)).toList();
  }

  /** The requests for {@code path}, one per line, for a failure's message. */
  String describe(String path) {
    StringBuilder b = new StringBuilder();
    forPath(path).forEach(e -> b.append("    ").append(e).append('\n'));
    return b.toString();
  }
}
