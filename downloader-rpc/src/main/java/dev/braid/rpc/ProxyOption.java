package dev.braid.rpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Download;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * aria2's {@code all-proxy} of one download, with {@code all-proxy-user} and
 * {@code all-proxy-passwd}: the download's own proxy ({@link DownloadRequestBuilder#proxy}), which
 * wins over the daemon's {@code --proxy} and the host rules for it alone; {@code direct} (the
 * word of the host rules) connects it directly. An empty value means the daemon's proxy, as a
 * download without the option has it: clients that send their whole option set send it empty,
 * and changeOption with it undoes a download's own proxy. The user and password, when given,
 * replace those in the URL. {@code getOption} shows the URL without credentials and never the
 * password: any client holding the RPC secret may read it, web UIs display it, and the queue
 * keeps no password to show.
 */
final class ProxyOption {
  static final String ALL_PROXY = "all-proxy";
  static final String USER = "all-proxy-user";
  static final String PASSWORD = "all-proxy-passwd";

  private ProxyOption() {}

  /** Whether {@code key} is one of the three. */
  static boolean isOne(String key) {
    return key.equals(ALL_PROXY) || key.equals(USER) || key.equals(PASSWORD);
  }

  /** Whether {@code options} sets a proxy or credentials for one (empty credentials set nothing). */
  static boolean given(ObjectNode options) throws RpcException {
    return options.has(ALL_PROXY) || !value(options, USER).isEmpty() || !value(options, PASSWORD).isEmpty();
  }

  /**
   * The download's proxy setting the options give ({@link #given} first): null for an empty
   * {@code all-proxy} (the daemon's), {@link DownloadRequest#DIRECT}, or the URL with the user
   * and password; checked, so a bad value fails the call before anything changes.
   */
  static String setting(ObjectNode options) throws RpcException {
    String url = value(options, ALL_PROXY).strip();
    String user = value(options, USER);
    String password = value(options, PASSWORD);
    boolean credentials = !user.isEmpty() || !password.isEmpty();
    if (url.isEmpty() || url.equalsIgnoreCase(DownloadRequest.DIRECT)) {
      if (credentials) {
        throw RpcException.failed(USER + " and " + PASSWORD + " need a proxy URL in " + ALL_PROXY + " (in the same call)");
      }
      return url.isEmpty() ? null : DownloadRequest.DIRECT;
    }
    if (credentials) {
      url = withCredentials(url, user, password);
    }
    try {
      // a throwaway request: the one place that knows which proxy URLs are usable
      DownloadRequest.builder("http://localhost/").proxy(url);
    } catch (IllegalArgumentException e) {
      throw RpcException.failed("option " + ALL_PROXY + ": " + e.getMessage());
    }
    return url;
  }

  /** Applies the options' proxy, if they set one, to a request being added. */
  static void applyTo(DownloadRequestBuilder b, ObjectNode options) throws RpcException {
    if (given(options)) {
      b.proxy(setting(options));
    }
  }

  /** {@code getOption}'s view: the URL without credentials, {@code direct}, or {@code ""} for the daemon's. */
  static void shownIn(ObjectNode o, Download d) {
    o.put(ALL_PROXY, d.proxy().orElse(""));
  }

  private static String value(ObjectNode options, String key) throws RpcException {
    return options.has(key) ? AddOptions.text(options, key) : "";
  }

  /** {@code url} with {@code user:password@} (percent-encoded) in place of the user-info it had. */
  private static String withCredentials(String url, String user, String password) {
    int scheme = url.indexOf("://");
    String head = scheme < 0 ? "http://" : url.substring(0, scheme + 3);
    String rest = scheme < 0 ? url : url.substring(scheme + 3);
    int at = rest.lastIndexOf('@');
    return head + encode(user) + ":" + encode(password) + "@" + (at < 0 ? rest : rest.substring(at + 1));
  }

  /** Percent-encoding for a URL's user-info; URLEncoder's '+' for a space would read back as a '+'. */
  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
