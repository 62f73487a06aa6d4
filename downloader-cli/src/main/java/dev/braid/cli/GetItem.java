package dev.braid.cli;

import dev.braid.core.DownloadRequest;
import dev.braid.core.InvalidRequestException;

/**
 * A download of {@code braid get}, built only when its turn comes: a long list's entries become
 * requests a window at a time ({@link ClientGet}), so memory follows the window, not the list.
 */
interface GetItem {
  int priority();

  /** Whether its URL is an https one, told without building its request. */
  boolean https();

  DownloadRequest request() throws InvalidRequestException;

  /** An item whose request is already built (a URL of the command line, a file of a Metalink). */
  record Built(DownloadRequest request) implements GetItem {
    @Override
    public int priority() {
      return request.priority();
    }

    @Override
    public boolean https() {
      return "https".equalsIgnoreCase(request.uri().getScheme());
    }
  }
}
