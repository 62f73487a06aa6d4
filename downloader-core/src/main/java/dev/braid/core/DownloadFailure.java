package dev.braid.core;

/**
 * Why a download failed, as far as the state database keeps it: its kind, a finer detail where one
 * is known, and the HTTP status of an {@link HttpStatusException}. The same whether this engine saw
 * the failure or read it back after a restart ({@link Download#failure()}); the message is
 * {@link Download#error()}.
 *
 * @param kind the failure's family, the one the command line's exit codes follow
 * @param detail what it was more precisely, {@link FailureDetail#NONE} when nothing finer is known
 * @param httpStatus the server's status for {@link FailureKind#HTTP_STATUS} (e.g. 404), 0 when none
 */
public record DownloadFailure(FailureKind kind, FailureDetail detail, int httpStatus) {
  /**
   * Checks its arguments: a kind and a detail are required, and a status is 0 or in 100-999.
   *
   * @param kind the failure's family
   * @param detail what it was more precisely
   * @param httpStatus the server's status, 0 when none
   */
  public DownloadFailure {
    if (kind == null || detail == null || (httpStatus != 0 && (httpStatus < 100 || httpStatus > 999))) {
      throw new IllegalArgumentException("a failure needs a kind, a detail, and an HTTP status of 0 or 100-999");
    }
  }

  /**
   * {@return whether waiting may fix it: the server or the way to it was away (a refused or reset
   * connection, a timeout, a name that did not resolve, a proxy down) or it said to come back
   * (HTTP 408, 429, 5xx but 501 and 505)} Refused credentials, the download's own deadline, refused redirects, other statuses
   * (404, 410...), checksums, the local side (a full disk) and a changed remote file do not pass.
   * The queue waits out the ones that pass under an {@link OutageRetry}.
   */
  public boolean passes() {
    return switch (kind) {
      case NETWORK -> detail != FailureDetail.PROXY_AUTH && detail != FailureDetail.DEADLINE;
      case HTTP_STATUS -> detail != FailureDetail.REDIRECT && (httpStatus == 408 || httpStatus == 429
          || (httpStatus >= 500 && httpStatus <= 599 && httpStatus != 501 && httpStatus != 505));
      default -> false;
    };
  }

  /**
   * {@return the failure {@code t} is, read through the form the state database keeps, so that a
   * failure reads the same before and after a restart} {@link FailureKind#INTERNAL} for what is no
   * {@link DownloadException}.
   *
   * @param t the failure, as a download's result ended with it
   */
  public static DownloadFailure of(Throwable t) {
    return StoredFailure.decode(StoredFailure.encode(t));
  }
}
