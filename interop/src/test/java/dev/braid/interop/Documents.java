package dev.braid.interop;

import dev.braid.testserver.Content;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Files for a server to serve, written as a site's files are: readable by the server's user, and
 * modified an hour ago unless a test wants a fresh one (Apache sends a weak ETag for a file
 * modified within the last second, which is a case of its own).
 */
final class Documents {
  private static final Duration SETTLED = Duration.ofHours(1);
  private static final String[] WORDS = {"alpha", "braid", "range", "server", "segment", "mirror", "apache",
      "lighttpd", "request", "response", "validator", "resume"};

  private Documents() {}

  /** {@code size} pseudo-random bytes from {@code seed}; returns their SHA-256 (hex). */
  static String writeRandom(Path file, long size, long seed) throws IOException {
    Content content = Content.random(size, seed);
    Files.createDirectories(file.getParent());
    try (OutputStream out = Files.newOutputStream(file)) {
      content.writeTo(out);
    }
    settle(file);
    return content.sha256Hex();
  }

  /**
   * Writes {@code size} pseudo-random bytes from {@code seed} over {@code file} from its first byte,
   * without truncating it (a reader of the old file reads on into the new bytes), and dates it an
   * hour before {@link #settle} would; returns their SHA-256.
   */
  static String rewriteInPlace(Path file, long size, long seed) throws IOException {
    Content content = Content.random(size, seed);
    try (OutputStream out = Channels.newOutputStream(FileChannel.open(file, StandardOpenOption.WRITE))) {
      content.writeTo(out);
    }
    settle(file, Duration.ofHours(1));
    return content.sha256Hex();
  }

  /** About {@code size} bytes of compressible text (lines of words from {@code seed}); returns its SHA-256. */
  static String writeText(Path file, long size, long seed) throws IOException {
    Random random = new Random(seed);
    Files.createDirectories(file.getParent());
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      long written = 0;
      while (written < size) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < 10; i++) {
          line.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        line.append(' ').append(written).append('\n');
        w.write(line.toString());
        written += line.length();
      }
    }
    settle(file);
    return Content.sha256Hex(file);
  }

  /** World-readable and last modified an hour ago (or {@code extraAge} more). */
  static void settle(Path file, Duration extraAge) throws IOException {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(SETTLED).minus(extraAge)));
  }

  static void settle(Path file) throws IOException {
    settle(file, Duration.ZERO);
  }

  /** Sets the modification time to now, as a write that just finished does. */
  static void touch(Path file) throws IOException {
    Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
