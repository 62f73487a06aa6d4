package dev.braid.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.Rules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * aria2's options that become a download's request headers: {@code header} (one {@code NAME:
 * VALUE} or an array of them), {@code referer} and {@code user-agent}. The same at
 * {@code addUri} and at {@code changeOption}, where they replace every header the download had:
 * the host rules' for its URL, then the call's. The values are secrets (a browser's cookies):
 * {@code getOption} never shows them, and a message names a header, never its value.
 */
final class HeaderOptions {
  /** The options read here. */
  static final Set<String> KEYS = Set.of("header", "referer", "user-agent");
  /**
   * Headers a client may not set: Braid asks for ranges and an identity encoding itself, and a
   * browser's {@code Accept-Encoding: gzip} or {@code Range} would corrupt a ranged file.
   */
  private static final Set<String> ENGINE_HEADERS = Set.of("accept-encoding", "range", "if-range", "host",
      "content-length", "connection", "transfer-encoding", "te", "upgrade", "proxy-authorization");

  private HeaderOptions() {}

  /** Whether {@code options} sets any of the three. */
  static boolean given(ObjectNode options) {
    return KEYS.stream().anyMatch(options::has);
  }

  /** Adds the headers {@code options} give to a request being built (after the host rules', which they replace by name). */
  static void applyTo(DownloadRequestBuilder b, ObjectNode options) throws RpcException {
    for (String h : lines(options.get("header"))) {
      int colon = h.indexOf(':');
      if (colon <= 0) {
        // not echoed: the line may be a cookie
        throw RpcException.failed("a header is not NAME: VALUE (" + (colon < 0 ? "no ':'" : "no name before ':'") + ")");
      }
      header(b, h.substring(0, colon).strip(), h.substring(colon + 1).strip());
    }
    if (options.has("referer")) {
      header(b, "Referer", AddOptions.text(options, "referer"));
    }
    if (options.has("user-agent")) {
      header(b, "User-Agent", AddOptions.text(options, "user-agent"));
    }
  }

  /**
   * The whole set of headers a download of {@code url} gets from {@code options} at a
   * changeOption: the host rules' for the URL, then the call's; checked as a new request's are.
   */
  static Map<String, String> of(String url, ObjectNode options, Rules rules) throws RpcException {
    DownloadRequestBuilder b = DownloadRequest.builder(url);
    rules.forUrl(url).applyTo(b);
    applyTo(b, options);
    try {
      return b.build().headers();
    } catch (InvalidRequestException e) {
      throw RpcException.failed(e.getMessage());
    }
  }

  private static void header(DownloadRequestBuilder b, String name, String value) {
    if (!ENGINE_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
      b.header(name, value);
    }
  }

  private static List<String> lines(JsonNode h) throws RpcException {
    List<String> out = new ArrayList<>();
    if (h == null) {
      return out;
    }
    if (h.isTextual()) {
      out.add(h.asText());
      return out;
    }
    if (!h.isArray()) {
      throw RpcException.failed("header must be a string or an array of strings");
    }
    for (JsonNode one : h) {
      out.add(one.asText());
    }
    return out;
  }
}
