package dev.braid.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Checksum;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageRetry;
import dev.braid.core.rules.Category;
import dev.braid.core.rules.Rules;
import dev.braid.core.PieceHashes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * aria2's per-download options of {@code addUri}, applied to a {@link DownloadRequest}. Options
 * Braid has no counterpart for are ignored, as clients send many (a browser extension sends
 * its whole set); {@code all-proxy} is the download's own proxy ({@link ProxyOption}),
 * {@code header}, {@code referer} and {@code user-agent} its request headers ({@link HeaderOptions}),
 * {@code max-tries} and {@code retry-wait} its own way of waiting out outages ({@link RetryOption}),
 * {@code allow-overwrite} replaces a file already at the target, and {@code stream-piece-selector=inorder}
 * fetches the file from its front.
 */
final class AddOptions {
  private final FolderPolicy folders;
  private final Rules rules;
  /** The engine's retry policy now: a download's own max-tries or retry-wait change it for that download. */
  private final Supplier<OutageRetry> retries;

  AddOptions(FolderPolicy folders, Rules rules, Supplier<OutageRetry> retries) {
    this.folders = folders;
    this.rules = rules;
    this.retries = retries;
  }

  /** What the options ask beyond the request: whether to add the download paused. */
  record Added(DownloadRequest request, boolean paused) {}

  Added request(List<String> uris, ObjectNode options) throws RpcException {
    if (uris.isEmpty()) {
      throw RpcException.failed("No URI to download.");
    }
    DownloadRequestBuilder b = DownloadRequest.builder(uris.get(0)).mirrors(uris.subList(1, uris.size()));
    // the host's rules first: the call's own options below replace them
    rules.forUrl(uris.get(0)).applyTo(b);
    Path dir = options.has("dir") ? folders.dir(text(options, "dir")) : categoryFolder(uris.get(0));
    // the folder is kept with a named file too: it is the download's aria2 'dir'
    b.directory(dir);
    if (options.has("out") && !text(options, "out").isEmpty()) {
      Path file = folders.out(dir, text(options, "out"));
      makeFolder(file.getParent());
      b.file(file);
    }
    HeaderOptions.applyTo(b, options);
    connections(b, options);
    if (options.has("max-download-limit")) {
      b.rateLimit(Sizes.parse("max-download-limit", text(options, "max-download-limit")));
    }
    // aria2's allow-overwrite: replace a file already there, and start over where the URL cannot continue a partial one
    if (options.has("allow-overwrite")) {
      b.overwrite("true".equals(text(options, "allow-overwrite")));
    }
    ProxyOption.applyTo(b, options);
    pieceSelector(b, options);
    if (RetryOption.given(options)) {
      b.outageRetry(RetryOption.apply(retries.get(), options));
    }
    try {
      if (options.has("checksum")) {
        b.checksum(Checksum.parse(text(options, "checksum")));
      }
      pieces(b, options);
      return new Added(b.build(), options.has("pause") && "true".equals(text(options, "pause")));
    } catch (InvalidRequestException e) {
      throw RpcException.failed(e.getMessage());
    }
  }

  /** The folder of the URL's category if it is an allowed one, else the download folder; an unallowed category folder fails the call. */
  private Path categoryFolder(String uri) throws RpcException {
    Optional<Category> c = rules.categoryFor(uri);
    if (c.isEmpty()) {
      return folders.downloadFolder();
    }
    try {
      return folders.dir(c.get().folder().toString());
    } catch (RpcException e) {
      throw RpcException.failed("category " + c.get().name() + ": " + e.getMessage());
    }
  }

  /** Braid's own options for a Metalink's file: its piece hashes ({@link PieceHashes#text()}) and size. */
  private static void pieces(DownloadRequestBuilder b, ObjectNode options) throws RpcException {
    try {
      if (options.has("braid-pieces")) {
        b.pieceHashes(PieceHashes.parse(text(options, "braid-pieces")));
      }
      if (options.has("braid-length")) {
        b.expectedLength(Long.parseLong(text(options, "braid-length")));
      }
    } catch (IllegalArgumentException e) {
      throw RpcException.failed("braid-pieces/braid-length: " + e.getMessage());
    }
  }

  /**
   * aria2's {@code stream-piece-selector}: {@code inorder} fetches the file from its front
   * ({@link DownloadRequestBuilder#sequential}); aria2's other selectors ({@code default},
   * {@code random}, {@code geom}) are Braid's usual splitting. Another value is refused, as aria2 does.
   */
  private static void pieceSelector(DownloadRequestBuilder b, ObjectNode options) throws RpcException {
    if (!options.has("stream-piece-selector")) {
      return;
    }
    String selector = text(options, "stream-piece-selector");
    if (!Set.of("default", "inorder", "random", "geom").contains(selector)) {
      throw RpcException.failed("option stream-piece-selector must be default, inorder, random or geom, not '" + selector
          + "'");
    }
    b.sequential(selector.equals("inorder"));
  }

  /** aria2 makes the folders of {@code out}; Braid makes a missing {@code dir} only for a name the server gives. */
  private static void makeFolder(Path folder) throws RpcException {
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw RpcException.failed("cannot make folder " + folder + ": " + e.getMessage());
    }
  }

  /** aria2's split and max-connection-per-server: the lower of the two given pins the connection count. */
  private static void connections(DownloadRequestBuilder b, ObjectNode options) throws RpcException {
    int n = Integer.MAX_VALUE;
    for (String key : new String[] {"split", "max-connection-per-server"}) {
      if (options.has(key)) {
        try {
          n = Math.min(n, Integer.parseInt(text(options, key)));
        } catch (NumberFormatException e) {
          throw RpcException.failed("option " + key + ": '" + text(options, key) + "' is not a number");
        }
      }
    }
    if (n != Integer.MAX_VALUE) {
      if (n < 1 || n > DownloadRequest.MAX_CONNECTIONS) {
        throw RpcException.failed("split/max-connection-per-server must be 1 to " + DownloadRequest.MAX_CONNECTIONS);
      }
      b.connections(n);
    }
  }

  /** An option's value: aria2 takes every value as a string, and so do clients (numbers are accepted too). */
  static String text(ObjectNode options, String key) throws RpcException {
    JsonNode v = options.get(key);
    if (v == null || !(v.isTextual() || v.isNumber() || v.isBoolean())) {
      throw RpcException.failed("option " + key + " must be a string");
    }
    return v.asText();
  }
}
