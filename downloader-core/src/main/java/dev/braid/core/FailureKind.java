package dev.braid.core;

import java.util.Locale;

/**
 * The kind of a download's failure: one per family of {@link DownloadException}, the families the
 * command line's exit codes name. {@link Download#failure()} gives it for a failed download,
 * whether this engine saw the failure or read it from the state database (an earlier run's, or
 * another process's).
 */
public enum FailureKind {
  /** The request itself is wrong ({@link InvalidRequestException}). */
  USAGE,
  /** The server could not be reached or the connection kept failing ({@link NetworkException}). */
  NETWORK,
  /** An HTTP error status, or redirects that could not be followed ({@link HttpStatusException}, {@link RedirectRefusedException}). */
  HTTP_STATUS,
  /** The remote file is not the one on disk and starting over was forbidden ({@link RemoteChangedException}). */
  REMOTE_CHANGED,
  /** The local side failed: space, permissions, folders, an existing file, the state database ({@link LocalFileException}). */
  LOCAL_IO,
  /** A checksum did not match, or the server answered other ranges than asked ({@link IntegrityException}). */
  INTEGRITY,
  /** A new URL could not be shown to serve the partial file's bytes ({@link LinkRefusedException}). */
  LINK_REFUSED,
  /** A Metalink document Braid does not use ({@link MetalinkException}). */
  METALINK,
  /** Removed from the queue while it ran ({@link DownloadRemovedException}). */
  REMOVED,
  /** Anything else: a failure no kind above describes (a bug), or one recorded without a kind. */
  INTERNAL;

  /** {@return the kind's name in Braid's RPC answers and JSON: lower case, words joined by '-', e.g. {@code http-status}} */
  public String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * {@return the kind whose {@link #id()} is {@code id}} {@link #INTERNAL} for one no kind has (a
   * newer Braid's, or none).
   *
   * @param id a kind's name as {@link #id()} gives it
   */
  public static FailureKind ofId(String id) {
    for (FailureKind k : values()) {
      if (k.id().equals(id)) {
        return k;
      }
    }
    return INTERNAL;
  }
}
