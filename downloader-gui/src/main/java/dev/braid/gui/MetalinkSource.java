package dev.braid.gui;

import dev.braid.core.Metalink;
import dev.braid.core.MetalinkException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * A Metalink 4 the person asked for in the add dialog: a local {@code .meta4}/{@code .metalink}
 * file (a path or a {@code file:} URI), read and parsed at once so a refused one is said in the
 * dialog, or an http(s) URL, fetched by the queue when it adds it.
 *
 * @param name what the person gave, for messages
 * @param url the http(s) URL to fetch, or null for a local file
 * @param parsed the local file's document, or null for a URL
 * @param document the local file's bytes, as the queue hands them to the engine, or null
 */
record MetalinkSource(String name, String url, Metalink parsed, byte[] document) {
  /**
   * The Metalink that {@code text} names, if it is one line ending in {@code .meta4} or
   * {@code .metalink}.
   *
   * @throws IllegalArgumentException with the parser's words when the local file is refused
   */
  static Optional<MetalinkSource> recognize(String text) {
    String s = text == null ? "" : text.strip();
    if (s.isEmpty() || s.contains("\n") || !Metalink.looksLikeMetalink(s)) {
      return Optional.empty();
    }
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.startsWith("http://") || lower.startsWith("https://")) {
      return Optional.of(new MetalinkSource(s, s, null, null));
    }
    Path file = localPath(s);
    byte[] doc = read(file);
    try {
      return Optional.of(new MetalinkSource(s, null, Metalink.parse(doc), doc));
    } catch (MetalinkException e) {
      throw new IllegalArgumentException("Metalink refused: " + e.getMessage());
    }
  }

  /**
   * Checks every file's target against {@code folder} (a local file; a URL's is checked when fetched).
   *
   * @throws IllegalArgumentException naming the first file that cannot go there
   */
  void checkInto(Path folder) {
    if (parsed == null) {
      return;
    }
    if (parsed.files().isEmpty()) {
      throw new IllegalArgumentException("Metalink refused: it describes no file");
    }
    for (Metalink.File f : parsed.files()) {
      try {
        f.request(folder, Metalink.Order.DOCUMENT);
      } catch (MetalinkException e) {
        throw new IllegalArgumentException("Metalink refused: " + e.getMessage());
      }
    }
  }

  private static Path localPath(String s) {
    try {
      return s.toLowerCase(Locale.ROOT).startsWith("file:") ? Path.of(URI.create(s)) : Path.of(s);
    } catch (IllegalArgumentException e) {
      // a malformed file: URI, or a path this system cannot name (InvalidPathException)
      throw new IllegalArgumentException("Not a Metalink file: " + s);
    }
  }

  private static byte[] read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] doc = in.readNBytes(Metalink.MAX_BYTES + 1);
      if (doc.length > Metalink.MAX_BYTES) {
        throw new IllegalArgumentException("Metalink refused: " + file + " is larger than 16 MiB");
      }
      return doc;
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read the Metalink " + file + ": " + e.getMessage());
    }
  }
}
