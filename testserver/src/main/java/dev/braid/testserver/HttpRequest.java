package dev.braid.testserver;

import java.util.Locale;
import java.util.Map;

/** A parsed request head; header names are lower-cased. */
record HttpRequest(String method, String target, String version, Map<String, String> headers) {

  /** The target without its query string: what routes are registered under. */
  String path() {
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  String header(String lowerCaseName) {
    return headers.get(lowerCaseName);
  }

  boolean isHead() {
    return method.equals("HEAD");
  }

  /** Whether the connection may carry another request after this one is answered. */
  boolean keepAlive() {
    // Request bodies are never read, so a request that has one leaves the stream unparseable.
    String length = headers.get("content-length");
    if ((length != null && !length.equals("0")) || headers.containsKey("transfer-encoding")) {
      return false;
    }
    String connection = headers.getOrDefault("connection", "").toLowerCase(Locale.ROOT);
    if (connection.contains("close")) {
      return false;
    }
    return version.equals("HTTP/1.1") || connection.contains("keep-alive");
  }
}
