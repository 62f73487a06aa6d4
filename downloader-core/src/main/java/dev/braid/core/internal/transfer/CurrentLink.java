package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadRequest;
import dev.braid.core.HttpStatusException;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.internal.http.OriginHeaders;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The link one download fetches from: its request as it stands now (replaced when the download
 * moves to a refreshed link), the headers that go with it to its origin, and the request's URL
 * refresher, asked when the link expires.
 *
 * <p>Threads: the request and headers are volatile, read by every thread of the download;
 * {@link #moveTo} may come from any thread (a user's {@code changeUrl}, or the driver's refresh)
 * and is serialised on this object. {@link #refreshed} runs on the driver thread only.
 */
final class CurrentLink {
  private static final Set<String> ENGINE_HEADERS = Set.of("accept-encoding", "range", "if-range");

  /** Replaced by {@link #moveTo}; each pass reads it once, when it starts. */
  private volatile DownloadRequest request;
  private volatile OriginHeaders originHeaders;
  /** Asks the request's refresher when the link expires; null without one. Driver thread only. */
  private final LinkRefresh refresh;

  CurrentLink(DownloadRequest request) {
    this.request = request;
    this.originHeaders = OriginHeaders.of(request.uri(), withoutEngineHeaders(request.headers()));
    this.refresh = request.urlRefresher()
        .map(r -> new LinkRefresh(r, request.maxUrlRefreshes(), request.urlRefreshTimeout())).orElse(null);
  }

  /**
   * The user's headers less those the engine decides: Accept-Encoding (a download is of one
   * representation, the identity one; a browser's "Copy as cURL" sends {@code gzip}, which would
   * turn ranges into slices of a compressed body) and the Range and If-Range of its requests.
   */
  private static Map<String, String> withoutEngineHeaders(Map<String, String> headers) {
    Map<String, String> kept = new LinkedHashMap<>(headers);
    kept.keySet().removeIf(name -> ENGINE_HEADERS.contains(name.toLowerCase(Locale.ROOT)));
    return kept;
  }

  DownloadRequest request() {
    return request;
  }

  OriginHeaders originHeaders() {
    return originHeaders;
  }

  /**
   * Moves to {@code uri}, a new link for the same file; with {@code file} known (the pass chose
   * it, or the request named it) the moved request names it too, as the old URL may have.
   */
  synchronized void moveTo(URI uri, Path file) throws InvalidRequestException {
    DownloadRequest moved = request.withUri(uri);
    Path pinned = file != null ? file : request.file().orElse(null);
    if (pinned != null) {
      // the old URL may have named the file; the new one must continue the same
      moved = moved.toBuilder().file(pinned).build();
    }
    originHeaders = OriginHeaders.of(moved.uri(), withoutEngineHeaders(moved.headers()));
    request = moved;
  }

  /**
   * Replaces the request's headers with {@code headers}, checked ones (a client's fresh cookie);
   * whether they differ from those in use.
   */
  synchronized boolean headers(Map<String, String> headers) {
    if (request.headers().equals(headers)) {
      return false;
    }
    DownloadRequest changed = request.withHeaders(headers);
    originHeaders = OriginHeaders.of(changed.uri(), withoutEngineHeaders(changed.headers()));
    request = changed;
    return true;
  }

  /**
   * An expired link: a pass that was getting bytes, or that continues bytes on disk, ended with
   * 401, 403, 404 or 410 (a fresh download refused at once is a wrong URL, not an expired one). Asks
   * the request's refresher for a new URL and, with one, moves to it (the next pass proves it
   * serves the same file). Returns false, or throws with the refresher's failure in the error,
   * when the download fails as it would have without one.
   *
   * @param file the pass's target, or null
   * @param note hears what happened, for the download's notes
   */
  boolean refreshed(HttpStatusException e, boolean wasWorking, Path file, Consumer<String> note) throws HttpStatusException {
    if (refresh == null || !wasWorking || !LinkRefresh.EXPIRED.contains(e.status())) {
      return false;
    }
    LinkRefresh.Answer a = refresh.ask(request.uri(), e.status());
    if (a.uri() == null) {
      note.accept(a.why());
      throw new HttpStatusException(e.status(), e.getMessage() + "; " + a.why());
    }
    try {
      moveTo(a.uri(), file);
    } catch (InvalidRequestException bad) {
      throw new HttpStatusException(e.status(), e.getMessage() + "; the URL refresher gave an unusable URL: "
          + bad.getMessage());
    }
    note.accept("the link answered HTTP " + e.status() + "; continuing from the refreshed URL " + a.uri());
    return true;
  }
}
