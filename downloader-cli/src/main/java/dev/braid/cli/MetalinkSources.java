package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.LocalFileException;
import dev.braid.core.Metalink;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Metalinks of one {@code braid get}: local {@code .meta4} files, read at once, and
 * {@code .meta4} URLs, fetched once the engine runs. Each selected file of a Metalink becomes one
 * download into the folder ({@code -d}, or a list entry's {@code dir=}) under the name the
 * Metalink gives it, its folders made; the command line's settings apply to each.
 */
final class MetalinkSources {
  private final MetalinkOptions options;
  private final InputList.Defaults defaults;
  private final PrintStream notes;
  /** Who the get runs for: a relative Metalink file or folder starts from its working directory. */
  private final Caller caller;
  private final List<Pending> pending = new ArrayList<>();

  /** A Metalink URL and the folder its files go into. */
  private record Pending(String url, Path folder) {}

  /** @param notes where what a Metalink holds that Braid ignores is printed; null for nowhere */
  MetalinkSources(MetalinkOptions options, InputList.Defaults defaults, PrintStream notes, Caller caller) {
    this.options = options;
    this.defaults = defaults;
    this.notes = notes;
    this.caller = caller;
  }

  /** Whether a command-line argument or list entry names a Metalink (by its suffix). */
  static boolean names(String arg) {
    return Metalink.looksLikeMetalink(arg);
  }

  static boolean isUrl(String arg) {
    String a = arg.toLowerCase(Locale.ROOT);
    return a.startsWith("http://") || a.startsWith("https://");
  }

  /**
   * The downloads of the Metalink {@code arg} into {@code folder} (null: the working directory): a
   * local file's now, a URL's later ({@link #fetchPending}).
   */
  List<GetItem> add(String arg, Path folder) throws DownloadException {
    if (isUrl(arg)) {
      pending.add(new Pending(arg, folder));
      return List.of();
    }
    Metalink m = Metalink.read(caller.resolve(Path.of(arg)));
    return items(m, folder);
  }

  /** Whether Metalink URLs wait for the engine. */
  boolean anyPending() {
    return !pending.isEmpty();
  }

  /** Fetches the Metalink URLs (in memory, through {@code braid}) and returns their downloads. */
  List<GetItem> fetchPending(Braid braid) throws DownloadException {
    List<GetItem> out = new ArrayList<>();
    for (Pending p : pending) {
      out.addAll(items(braid.fetchMetalink(defaults.forUrl(p.url()).build()), p.folder()));
    }
    return out;
  }

  private List<GetItem> items(Metalink m, Path folder) throws DownloadException {
    if (notes != null) {
      m.notes().forEach(n -> notes.println("braid: metalink: " + n));
    }
    Path base = caller.resolve(folder == null ? Path.of("") : folder);
    Metalink.Order order = options.order();
    List<GetItem> out = new ArrayList<>();
    for (Metalink.File f : options.selected(m)) {
      DownloadRequestBuilder own = f.request(base, order);
      DownloadRequest shaped = own.build();
      // the command line's settings, then the Metalink's own: its URLs, target, hashes and size
      DownloadRequestBuilder b = defaults.forUrl(shaped.uri().toString()).directory(null)
          .file(shaped.file().orElseThrow())
          .mirrors(shaped.mirrors().stream().map(Object::toString).toList())
          .expectedLength(shaped.expectedLength())
          .pieceHashes(shaped.pieceHashes().orElse(null));
      shaped.checksum().ifPresent(b::checksum);
      DownloadRequest r = b.build();
      makeFolder(r.file().orElseThrow().getParent());
      out.add(new GetItem.Built(r));
    }
    return out;
  }

  private static void makeFolder(Path folder) throws LocalFileException {
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new LocalFileException("cannot make the folder " + folder + ": " + e.getMessage(), e);
    }
  }
}
