package dev.braid.cli;

import dev.braid.core.ByteSize;
import dev.braid.core.Checksum;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Reads a list for {@code braid get -i}: a URL per line (more URLs on the same line, separated by
 * whitespace, are mirrors), then indented option lines for it ({@code out=}, {@code dir=},
 * {@code checksum=}, {@code mirror=} or a bare URL, {@code connections=}, {@code limit-rate=},
 * {@code priority=}); blank lines and lines starting with {@code #} are skipped. A mistake is
 * reported with its line number before anything is downloaded.
 */
final class InputList {
  private final Path file;
  private final Path folder;
  /** A relative dir= or out= as the caller means it ({@link Caller#resolve}). */
  private final UnaryOperator<Path> resolve;
  private final Defaults defaults;
  private final List<Entry> entries;
  private final List<MetalinkLine> metalinks = new ArrayList<>();

  private InputList(Path file, Path folder, UnaryOperator<Path> resolve, Defaults defaults, List<Entry> entries) {
    this.file = file;
    this.resolve = resolve;
    this.folder = folder;
    this.defaults = defaults;
    this.entries = entries;
  }

  /**
   * Reads and checks the whole list. It keeps each entry as its text, not as a request: a list of
   * 60,000 URLs held as requests took ~1 KiB each for the whole run.
   *
   * @param folder the command line's folder ({@code -d}), or null for the working directory
   * @param defaults a builder with the command line's settings for a URL, applied before the
   *     list's own option lines
   */
  static InputList read(Path file, Path folder, Defaults defaults, Caller caller) throws InvalidRequestException {
    List<String> lines;
    try {
      lines = file.toString().equals("-")
          ? new String(caller.in().readAllBytes(), StandardCharsets.UTF_8).lines().toList()
          : Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidRequestException("cannot read the input list " + file + ": " + e.getMessage(), e);
    }
    InputList list = new InputList(file, folder, caller::resolve, defaults, new ArrayList<>());
    int start = -1;
    StringBuilder text = new StringBuilder();
    int skipped = 0;
    for (int i = 0; i < lines.size(); i++) {
      String raw = lines.get(i);
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        skipped++;
        continue;
      }
      if (!Character.isWhitespace(raw.charAt(0))) {
        list.add(start, text);
        start = i + 1;
        text.setLength(0);
        text.append(line);
      } else if (start < 0) {
        throw new InvalidRequestException(where(file, i + 1) + "an option line before any URL");
      } else {
        // a skipped line among the options stays as an empty one, so line numbers stay exact
        text.append("\n".repeat(skipped)).append('\n').append(line);
      }
      skipped = 0;
    }
    list.add(start, text);
    if (list.entries.isEmpty() && list.metalinks.isEmpty()) {
      throw new InvalidRequestException("the input list " + file + " holds no URL");
    }
    return list;
  }

  /** Checks an entry by building its request once, and keeps its text. */
  private void add(int line, StringBuilder text) throws InvalidRequestException {
    if (line < 0) {
      return;
    }
    String[] lines = text.toString().split("\n");
    if (MetalinkSources.names(lines[0].split("\\s+")[0])) {
      metalinks.add(MetalinkLine.of(file, line, lines, folder, resolve));
      return;
    }
    Entry e = new Entry(line, text.toString());
    e.priority = request(e).priority();
    entries.add(e);
  }

  /** The entries that name a Metalink (a {@code .meta4} file or URL), in list order. */
  List<MetalinkLine> metalinks() {
    return metalinks;
  }

  /**
   * An entry naming a Metalink, whose files become downloads of their own.
   *
   * @param folder its {@code dir=}, else the command line's folder (null: the working directory)
   */
  record MetalinkLine(String source, Path folder) {
    static MetalinkLine of(Path file, int line, String[] lines, Path folder, UnaryOperator<Path> resolve)
        throws InvalidRequestException {
      Path dir = folder;
      for (int k = 1; k < lines.length; k++) {
        if (lines[k].isEmpty()) {
          continue;
        }
        if (!lines[k].startsWith("dir=")) {
          throw new InvalidRequestException(where(file, line + k) + "a Metalink entry takes only dir= (its files, hashes"
              + " and mirrors are in the Metalink)");
        }
        try {
          dir = resolve.apply(Path.of(lines[k].substring(4).strip()));
        } catch (InvalidPathException e) {
          throw new InvalidRequestException(where(file, line + k) + "dir= is not a folder name: " + e.getMessage(), e);
        }
      }
      return new MetalinkLine(lines[0].split("\\s+")[0], dir);
    }
  }

  /** The entries in list order. */
  List<Entry> entries() {
    return entries;
  }

  /** The request of an entry: its URL line, then its option lines over the command line's settings. */
  private DownloadRequest request(Entry e) throws InvalidRequestException {
    String[] lines = e.text.split("\n");
    String[] urls = lines[0].split("\\s+");
    Item item = new Item(file, e.line, folder, resolve, defaults.forUrl(urls[0]));
    item.builder.mirrors(List.of(urls).subList(1, urls.length));
    for (int k = 1; k < lines.length; k++) {
      if (!lines[k].isEmpty()) {
        item.option(lines[k], e.line + k);
      }
    }
    return item.build();
  }

  /** One URL of the list with its option lines, as written; its request is built when asked for. */
  final class Entry implements GetItem {
    /** Where its URL line is (1-based). */
    final int line;
    /**
     * The URL line, then its option lines, each stripped, separated by newlines (a comment or
     * blank line among them as an empty line).
     */
    final String text;
    private int priority;

    private Entry(int line, String text) {
      this.line = line;
      this.text = text;
    }

    @Override
    public int priority() {
      return priority;
    }

    @Override
    public boolean https() {
      return text.regionMatches(true, 0, "https:", 0, 6);
    }

    @Override
    public DownloadRequest request() throws InvalidRequestException {
      return InputList.this.request(this);
    }
  }

  private static String where(Path file, int line) {
    return file + ":" + line + ": ";
  }

  /** Makes the builder of one URL with the command line's settings. */
  interface Defaults {
    DownloadRequestBuilder forUrl(String url) throws InvalidRequestException;
  }

  private static final class Item {
    final Path file;
    final int line;
    final DownloadRequestBuilder builder;
    final UnaryOperator<Path> resolve;
    Path dir;
    String out;

    Item(Path file, int line, Path folder, UnaryOperator<Path> resolve, DownloadRequestBuilder builder) {
      this.file = file;
      this.line = line;
      this.dir = folder;
      this.resolve = resolve;
      this.builder = builder;
    }

    /**
     * Applies one option line; a mistake in it, whichever check finds it (this parser, the
     * checksum's, a builder setter's), is reported at this line.
     */
    void option(String text, int at) throws InvalidRequestException {
      try {
        apply(text);
      } catch (InvalidRequestException | IllegalArgumentException e) {
        throw new InvalidRequestException(where(file, at) + e.getMessage(), e);
      }
    }

    private void apply(String text) throws InvalidRequestException {
      if (text.contains("://") && !text.contains("=")) {
        mirrors(List.of(text.split("\\s+")));
        return;
      }
      int eq = text.indexOf('=');
      if (eq <= 0) {
        throw new InvalidRequestException("expected NAME=VALUE, found '" + text + "'");
      }
      String name = text.substring(0, eq).strip();
      String value = text.substring(eq + 1).strip();
      switch (name) {
        case "out" -> {
          // held to the folder: a plain name in it, never ".." or a path
          if (value.contains("/") || value.contains("\\")) {
            throw new InvalidRequestException("out= is a file name; use dir= for the folder");
          }
          if (value.isEmpty() || value.equals(".") || value.equals("..") || value.indexOf('\0') >= 0) {
            throw new InvalidRequestException("out= '" + value + "' is not a file name in the folder");
          }
          out = value;
        }
        case "dir" -> dir = resolve.apply(Path.of(value));
        case "checksum" -> builder.checksum(Checksum.parse(value));
        case "mirror" -> mirrors(List.of(value));
        case "connections" -> {
          if (value.equals("auto")) {
            builder.adaptiveConnections();
          } else {
            builder.connections(number(value, "connections"));
          }
        }
        case "limit-rate" -> builder.rateLimit(size(value));
        case "priority" -> builder.priority(number(value, "priority"));
        default -> throw new InvalidRequestException("unknown option " + name
            + " (known: out, dir, checksum, mirror, connections, limit-rate, priority)");
      }
    }

    /** Mirrors of an option line, each checked as a URL here so that a bad one is reported at its line. */
    private void mirrors(List<String> urls) throws InvalidRequestException {
      for (String url : urls) {
        try {
          DownloadRequest.builder(url).build();
        } catch (InvalidRequestException e) {
          throw new InvalidRequestException("mirror: " + e.getMessage(), e);
        }
      }
      builder.mirrors(urls);
    }

    private static int number(String value, String what) throws InvalidRequestException {
      try {
        return Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw new InvalidRequestException(what + " must be a number, not '" + value + "'");
      }
    }

    private static long size(String value) throws InvalidRequestException {
      try {
        return ByteSize.parse(value);
      } catch (IllegalArgumentException e) {
        throw new InvalidRequestException("limit-rate: " + e.getMessage());
      }
    }

    DownloadRequest build() throws InvalidRequestException {
      if (out != null) {
        builder.file(dir == null ? resolve.apply(Path.of(out)) : dir.resolve(out));
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
