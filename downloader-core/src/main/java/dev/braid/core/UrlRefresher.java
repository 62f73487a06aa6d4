package dev.braid.core;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Gives a download a new URL when its link expires: asked on the download's own driver thread
 * when ranges that were being served start getting 401, 403, 404 or 410 (a signed URL past its
 * time), at most {@link #DEFAULT_MAX_REFRESHES} times per download and for at most
 * {@link #DEFAULT_TIMEOUT} each unless the request says otherwise. An answer that takes longer,
 * throws or is empty leaves the download failing as it would have; a new URL is used only once it
 * proves to serve the same file (see {@link Download#changeUrl}).
 */
@FunctionalInterface
public interface UrlRefresher {
  /** How many times one download asks, unless {@link DownloadRequestBuilder#maxUrlRefreshes} says otherwise. */
  int DEFAULT_MAX_REFRESHES = 3;
  /** How long one answer may take, unless {@link DownloadRequestBuilder#urlRefreshTimeout} says otherwise. */
  Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /**
   * {@return a new URL for the file that {@code expired} served, or empty when there is none}
   *
   * @param status the HTTP status the ranges got (401, 403, 404 or 410)
   * @param expired the URL whose link expired
   * @throws Exception any failure to get one; reported with the download's failure, never thrown on
   */
  Optional<URI> refresh(URI expired, int status) throws Exception;
}
