package dev.braid.cli;

import dev.braid.core.Checksum;
import dev.braid.core.DownloadRequest;
import dev.braid.core.InvalidRequestException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a list for {@code braid get -i}: a URL per line (more URLs on the same line, separated by
 * whitespace, are mirrors), then indented option lines for it ({@code out=}, {@code dir=},
 * {@code checksum=}, {@code mirror=} or a bare URL, {@code connections=}, {@code limit-rate=},
 * {@code priority=}); blank lines and lines starting with {@code #} are skipped. A mistake is
 * reported with its line number before anything is downloaded.
 */
final class InputList {
  private InputList() {}

  /**
   * @param folder the command line's folder ({@code -d}), or null for the working directory
   * @param defaults a builder with the command line's settings for a URL, applied before the
   *     list's own option lines
   */
  static List<DownloadRequest> read(Path file, Path folder, Defaults defaults) throws InvalidRequestException {
    List<String> lines;
    try {
      lines = file.toString().equals("-")
          ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()
          : Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidRequestException("cannot read the input list " + file + ": " + e.getMessage(), e);
    }
    List<DownloadRequest> out = new ArrayList<>();
    Item current = null;
    for (int i = 0; i < lines.size(); i++) {
      String raw = lines.get(i);
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      boolean indented = Character.isWhitespace(raw.charAt(0));
      if (!indented) {
        if (current != null) {
          out.add(current.build());
        }
        String[] urls = line.split("\\s+");
        current = new Item(file, i + 1, folder, defaults.forUrl(urls[0]));
        current.builder.mirrors(List.of(urls).subList(1, urls.length));
      } else if (current == null) {
        throw new InvalidRequestException(where(file, i + 1) + "an option line before any URL");
      } else {
        current.option(line, i + 1);
      }
    }
    if (current != null) {
      out.add(current.build());
    }
    if (out.isEmpty()) {
      throw new InvalidRequestException("the input list " + file + " holds no URL");
    }
    return out;
  }

  private static String where(Path file, int line) {
    return file + ":" + line + ": ";
  }

  /** Makes the builder of one URL with the command line's settings. */
  interface Defaults {
    DownloadRequest.Builder forUrl(String url);
  }

  private static final class Item {
    final Path file;
    final int line;
    final DownloadRequest.Builder builder;
    Path dir;
    String out;

    Item(Path file, int line, Path folder, DownloadRequest.Builder builder) {
      this.file = file;
      this.line = line;
      this.dir = folder;
      this.builder = builder;
    }

    void option(String text, int at) throws InvalidRequestException {
      if (text.contains("://") && !text.contains("=")) {
        builder.mirrors(List.of(text.split("\\s+")));
        return;
      }
      int eq = text.indexOf('=');
      if (eq <= 0) {
        throw new InvalidRequestException(where(file, at) + "expected NAME=VALUE, found '" + text + "'");
      }
      String name = text.substring(0, eq).strip();
      String value = text.substring(eq + 1).strip();
      switch (name) {
        case "out" -> out = value;
        case "dir" -> dir = Path.of(value);
        case "checksum" -> builder.checksum(Checksum.parse(value));
        case "mirror" -> builder.mirrors(List.of(value));
        case "connections" -> {
          if (value.equals("auto")) {
            builder.adaptiveConnections();
          } else {
            builder.connections(number(value, at, "connections"));
          }
        }
        case "limit-rate" -> builder.rateLimit(size(value, at));
        case "priority" -> builder.priority(number(value, at, "priority"));
        default -> throw new InvalidRequestException(where(file, at) + "unknown option " + name
            + " (known: out, dir, checksum, mirror, connections, limit-rate, priority)");
      }
    }

    private int number(String value, int at, String what) throws InvalidRequestException {
      try {
        return Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw new InvalidRequestException(where(file, at) + what + " must be a number, not '" + value + "'");
      }
    }

    private long size(String value, int at) throws InvalidRequestException {
      try {
        return new ByteSizeConverter().convert(value);
      } catch (Exception e) {
        throw new InvalidRequestException(where(file, at) + "limit-rate must be a size like 500K or 4M, not '" + value + "'");
      }
    }

    DownloadRequest build() throws InvalidRequestException {
      if (out != null) {
        if (out.contains("/") || out.contains("\\")) {
          throw new InvalidRequestException(where(file, line) + "out= is a file name; use dir= for the folder");
        }
        builder.file(dir == null ? Path.of(out) : dir.resolve(out));
      } else if (dir != null) {
        builder.directory(dir);
      }
      try {
        return builder.build();
      } catch (InvalidRequestException e) {
        throw new InvalidRequestException(where(file, line) + e.getMessage(), e);
      }
    }
  }
}
