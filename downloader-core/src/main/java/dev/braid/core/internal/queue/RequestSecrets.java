package dev.braid.core.internal.queue;

import dev.braid.core.DownloadRequest;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.DownloadRequestBuilder;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What of the requests submitted here the store does not hold, by entry id: their proxy's
 * credentials and their URL refreshers (callbacks). Only in memory: an entry run by another
 * process (or after a restart) goes without them. (A request's headers and credentials are in
 * the store: {@link dev.braid.store.QueueStore#headers}.) Thread-safe (concurrent maps).
 */
final class RequestSecrets {
  private final Map<Long, DownloadRequest> refreshers = new ConcurrentHashMap<>();
  /** Proxy URLs with credentials, which the store holds without them. */
  private final Map<Long, String> proxies = new ConcurrentHashMap<>();

  /** Keeps what {@code request}, submitted here as entry {@code id}, carries beyond the store, and forgets an earlier request's. */
  void keep(long id, DownloadRequest request) {
    if (request.urlRefresher().isPresent()) {
      refreshers.put(id, request);
    } else {
      refreshers.remove(id);
    }
    proxy(id, request.proxy().orElse(null));
  }

  /** Keeps the credentials of entry {@code id}'s proxy {@code url} (null: none of its own), and forgets earlier ones. */
  void proxy(long id, String url) {
    if (DownloadProxy.hasCredentials(url)) {
      proxies.put(id, url);
    } else {
      proxies.remove(id);
    }
  }

  /** The decoded request of entry {@code id} with the proxy credentials and refresher given to this process, if any. */
  DownloadRequest restore(long id, DownloadRequest decoded) throws InvalidRequestException {
    DownloadRequest refreshing = refreshers.get(id);
    String proxy = proxies.get(id);
    // only for the proxy the entry still names: another process may have changed it since
    boolean sameProxy = proxy != null && decoded.proxy().equals(Optional.of(DownloadProxy.stored(proxy)));
    if (refreshing == null && !sameProxy) {
      return decoded;
    }
    DownloadRequestBuilder b = decoded.toBuilder();
    if (sameProxy) {
      b.proxy(proxy);
    }
    if (refreshing != null) {
      b.urlRefresher(refreshing.urlRefresher().get()).maxUrlRefreshes(refreshing.maxUrlRefreshes())
          .urlRefreshTimeout(refreshing.urlRefreshTimeout());
    }
    // checked again, as the decoded request was: what is added here was checked when it was given
    return b.build();
  }
}
