package dev.braid.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A Metalink 4 document (RFC 5854): the files it describes, each with its URLs, size, whole-file
 * hashes and piece hashes. {@link File#request} turns a file into a {@link DownloadRequest} whose
 * first URL is the most preferred and whose others are its mirrors, so connections spread over
 * them; its hashes are checked as the download goes ({@link DownloadRequestBuilder#pieceHashes})
 * and before the final rename ({@link DownloadRequestBuilder#checksum}).
 *
 * <pre>{@code
 * Metalink m = Metalink.read(Path.of("ubuntu.meta4"));
 * for (Metalink.File f : m.files()) {
 *   braid.submit(f.request(Path.of("downloads"), Metalink.Order.DOCUMENT).build());
 * }
 * }</pre>
 *
 * <p>Parsing is hardened: a DOCTYPE (and so any entity, internal or external) is refused, the
 * document is at most {@value #MAX_BYTES} bytes, and a file name must be a relative path that
 * stays inside the target folder, through no symbolic link leading out of it; each of its parts is
 * cleaned as a server's file name is (no hidden file or folder, no control or bidi character, at
 * most 250 bytes). Metalink 3 (metalinker.org) is refused, and {@code metaurl}
 * (torrents) and URLs other than http and https are ignored, each with a note.
 */
public final class Metalink {
  /** The largest document read. */
  public static final int MAX_BYTES = 16 << 20;
  /** The media type of a Metalink 4 document. */
  public static final String MEDIA_TYPE = "application/metalink4+xml";
  /** The priority of a URL that gives none: the lowest. */
  public static final int LOWEST_PRIORITY = 999_999;

  private final List<File> files;
  private final List<String> notes;

  /**
   * A document of these files, as parsed (or made by a caller that has its own source of them).
   *
   * @param files the files, in document order
   * @param notes what the document holds that Braid ignores (metaurls, ftp URLs, unknown hash types)
   */
  public Metalink(List<File> files, List<String> notes) {
    this.files = List.copyOf(files);
    this.notes = List.copyOf(notes);
  }

  /**
   * Parses a document.
   *
   * @param document the document's bytes, at most {@value #MAX_BYTES}
   * @return the parsed document
   * @throws MetalinkException when it is no Metalink 4 document, too large or malformed
   */
  public static Metalink parse(byte[] document) throws MetalinkException {
    return MetalinkParser.parse(document);
  }

  /**
   * Reads and parses a local file (at most {@value #MAX_BYTES} bytes).
   *
   * @param file the document
   * @return the parsed document
   * @throws MetalinkException when it cannot be read, or is no Metalink 4 document, too large or
   *     malformed
   */
  public static Metalink read(Path file) throws MetalinkException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] doc = in.readNBytes(MAX_BYTES + 1);
      if (doc.length > MAX_BYTES) {
        throw new MetalinkException(file + " is larger than " + MAX_BYTES + " bytes: not read as a Metalink");
      }
      return parse(doc);
    } catch (IOException e) {
      throw new MetalinkException("cannot read the Metalink " + file + ": " + e.getMessage(), e);
    } catch (MetalinkException e) {
      throw new MetalinkException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * {@return whether a name or URL path names a Metalink by its suffix ({@code .meta4},
   * {@code .metalink})}
   *
   * @param nameOrUrl a file name or a URL
   */
  public static boolean looksLikeMetalink(String nameOrUrl) {
    String s = nameOrUrl.toLowerCase(Locale.ROOT);
    int cut = s.indexOf('?');
    s = cut >= 0 ? s.substring(0, cut) : s;
    return s.endsWith(".meta4") || s.endsWith(".metalink");
  }

  /** {@return the files, in document order} */
  public List<File> files() {
    return files;
  }

  /**
   * The files aria2's {@code --select-file} names: indexes from 1 in document order, and ranges,
   * as in {@code 1-3,5}; every file for null.
   *
   * @param selection indexes and ranges, as in {@code 1-3,5}, or null for all
   * @return the selected files, in document order
   * @throws IllegalArgumentException for another form, or a selection of no file
   */
  public List<File> files(String selection) {
    if (selection == null) {
      return files;
    }
    BitSet chosen = new BitSet();
    for (String part : selection.split(",")) {
      String p = part.strip();
      try {
        int dash = p.indexOf('-');
        int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).strip());
        int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1).strip());
        if (from < 1 || to < from) {
          throw new NumberFormatException(p);
        }
        // indexes past the last file select nothing: no bit set sized by the text (1-2147483647 took 256 MiB)
        chosen.set(Math.min(from - 1, files.size()), Math.min(to, files.size()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("the file selection takes indexes from 1 and ranges like 1-3,5, not '"
            + selection + "'", e);
      }
    }
    List<File> out = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      if (chosen.get(i)) {
        out.add(files.get(i));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("the file selection " + selection + " names none of the " + files.size() + " files");
    }
    return out;
  }

  /** {@return what the document holds that Braid ignores, one line each} */
  public List<String> notes() {
    return notes;
  }

  /**
   * One URL of a file.
   *
   * @param url as written
   * @param priority 1 (most preferred) to {@value Metalink#LOWEST_PRIORITY}
   * @param location an ISO 3166-1 country code, lower case, or empty
   */
  public record Url(String url, int priority, String location) {
    /** {@return the scheme, lower case ({@code https}), or empty} */
    public String scheme() {
      int colon = url.indexOf(':');
      return colon <= 0 ? "" : url.substring(0, colon).toLowerCase(Locale.ROOT);
    }
  }

  /**
   * How to order a file's URLs: those in a preferred location first (aria2's
   * {@code --metalink-location}), then those of the preferred protocol
   * ({@code --metalink-preferred-protocol}), then by priority, lower first, then in document order.
   *
   * @param locations preferred country codes, lower case; empty for none
   * @param protocol {@code http} or {@code https}, or empty for none
   */
  public record Order(List<String> locations, String protocol) {
    /** Priority, then document order. */
    public static final Order DOCUMENT = new Order(List.of(), "");

    /**
     * Normalises both to lower case without blanks, dropping empty locations.
     *
     * @param locations preferred country codes; empty for none
     * @param protocol {@code http} or {@code https}, or empty for none
     * @throws IllegalArgumentException for a protocol other than http, https or empty
     */
    public Order {
      locations = locations.stream().map(l -> l.strip().toLowerCase(Locale.ROOT)).filter(l -> !l.isEmpty()).toList();
      protocol = protocol.strip().toLowerCase(Locale.ROOT);
      if (protocol.equals("none")) {
        protocol = "";
      }
      if (!protocol.isEmpty() && !protocol.equals("http") && !protocol.equals("https")) {
        throw new IllegalArgumentException("the preferred protocol is http, https or none, not " + protocol);
      }
    }

    /**
     * {@return {@code urls} in this order} (a stable sort: equal keys keep document order)
     *
     * @param urls a file's URLs
     */
    public List<Url> sort(List<Url> urls) {
      List<Url> sorted = new ArrayList<>(urls);
      // stable: equal keys keep document order
      sorted.sort(Comparator.comparingInt((Url u) -> locations.contains(u.location()) ? 0 : 1)
          .thenComparingInt(u -> protocol.isEmpty() || protocol.equals(u.scheme()) ? 0 : 1)
          .thenComparingInt(Url::priority));
      return sorted;
    }
  }

  /**
   * One file of the document.
   *
   * @param name a relative path (checked: no {@code ..}, not absolute), possibly with folders
   * @param size bytes, or -1 when the document does not say
   * @param hashes whole-file digests by type as written ({@code sha-256}), lower-case hex
   * @param pieces the piece hashes Braid checks (the strongest kind the document gives), or null
   * @param urls the http and https URLs, in document order
   */
  public record File(String name, long size, Map<String, String> hashes, PieceHashes pieces, List<Url> urls) {
    /**
     * Copies the digests and the URLs, so that the file stays as it was read.
     *
     * @param name a relative path, possibly with folders
     * @param size bytes, or -1 when the document does not say
     * @param hashes whole-file digests by type, lower-case hex
     * @param pieces the piece hashes Braid checks, or null
     * @param urls the http and https URLs, in document order
     */
    public File {
      hashes = Map.copyOf(hashes);
      urls = List.copyOf(urls);
    }

    /** {@return the piece hashes, when the document gives a kind Braid checks} */
    public Optional<PieceHashes> pieceHashes() {
      return Optional.ofNullable(pieces);
    }

    /** {@return the strongest whole-file digest Braid can verify, if any} */
    public Optional<Checksum> checksum() {
      for (String type : List.of("sha-512", "sha-256", "sha-1", "md5")) {
        String hex = hashes.get(type);
        if (hex != null) {
          return Optional.of(new Checksum(type, hex));
        }
      }
      return Optional.empty();
    }

    /**
     * A request for this file into {@code folder} (as {@code folder/name}, whose folders the
     * caller makes), its URLs in {@code order}: the first is the main URL, the others mirrors.
     * Size, checksum and piece hashes go with it. The caller adds its own settings (connections,
     * headers) to the builder.
     *
     * @param folder the folder the file's name is resolved in
     * @param order how to order its URLs
     * @return a builder for the file's request
     * @throws MetalinkException when the file has no http or https URL, or its name goes through a
     *     symbolic link in {@code folder} that leads out of it (or nowhere)
     */
    public DownloadRequestBuilder request(Path folder, Order order) throws MetalinkException {
      List<Url> sorted = order.sort(urls);
      if (sorted.isEmpty()) {
        throw new MetalinkException("the Metalink's file " + name + " has no http or https URL"
            + " (metaurls, such as torrents, are not followed)");
      }
      Path base = folder.toAbsolutePath().normalize();
      Path target = base.resolve(name).normalize();
      if (!target.startsWith(base) || target.equals(base)) {
        throw new MetalinkException("the Metalink's file name " + name + " leaves the folder " + base);
      }
      refuseLinkOut(base, target);
      DownloadRequestBuilder b = DownloadRequest.builder(sorted.get(0).url()).file(target)
          .mirrors(sorted.subList(1, sorted.size()).stream().map(Url::url).toList());
      checksum().ifPresent(b::checksum);
      b.pieceHashes(pieces);
      if (size >= 0) {
        b.expectedLength(size);
      }
      return b;
    }

    /**
     * Refuses a name that goes through a symbolic link leading out of the folder. Refused rather
     * than cleaned: the link is the user's (or an unpacked archive's), and writing beside it under
     * another name would put the file where neither the Metalink nor the user said.
     */
    private void refuseLinkOut(Path base, Path target) throws MetalinkException {
      Optional<Path> link;
      try {
        link = LinksOut.firstLinkOut(base, target);
      } catch (IOException e) {
        throw new MetalinkException("cannot check the folders of " + name + " in " + base + ": " + e.getMessage(), e);
      }
      if (link.isPresent()) {
        throw new MetalinkException("the Metalink's file name " + name + " goes through " + link.get()
            + ", a symbolic link leading out of the folder " + base);
      }
    }
  }
}
