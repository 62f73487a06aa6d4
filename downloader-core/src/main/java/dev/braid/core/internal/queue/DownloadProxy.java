package dev.braid.core.internal.queue;

import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A download's own proxy ({@link DownloadRequestBuilder#proxy}) as the queue stores it: under
 * {@value #OPTION} in the entry's options, without the credentials its URL may hold, which stay in
 * this process's memory only ({@link RequestSecrets}).
 */
final class DownloadProxy {
  /** The queue entry's option that holds the proxy URL (without credentials) or {@link DownloadRequest#DIRECT}. */
  static final String OPTION = "proxy";

  private DownloadProxy() {}

  /** The form the store keeps: the URL without its user-info, the part that may hold a password. */
  static String stored(String url) {
    int at = url.lastIndexOf('@');
    if (at < 0) {
      return url;
    }
    int start = url.indexOf("://");
    return url.substring(0, start < 0 ? 0 : start + 3) + url.substring(at + 1);
  }

  /** Whether {@code url} (a checked one, or null) carries credentials the store does not keep. */
  static boolean hasCredentials(String url) {
    return url != null && !stored(url).equals(url);
  }

  /** {@code options} with {@code url} as the proxy (null: none of its own). */
  static Map<String, String> into(Map<String, String> options, String url) {
    Map<String, String> o = new LinkedHashMap<>(options);
    if (url == null) {
      o.remove(OPTION);
    } else {
      o.put(OPTION, stored(url));
    }
    return o;
  }
}
