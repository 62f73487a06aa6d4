package dev.braid.testserver;

import java.util.Locale;
import java.util.Map;

/**
 * One request as the server saw it, and the status it answered.
 *
 * @param connectionId the connection it arrived on, numbered from 1 in accept order
 * @param method the request method, e.g. {@code GET}; empty if the request line was unreadable
 * @param path the request target as sent (query included); empty if unreadable
 * @param range the {@code Range} header, or null
 * @param ifRange the {@code If-Range} header, or null
 * @param headers all request headers, names lower-cased, repeated headers joined with ", "
 * @param status the status sent; 0 in the record given to {@link Resource#onRequest} hooks,
 *     which run before the status is decided
 */
public record RequestRecord(
    int connectionId,
    String method,
    String path,
    String range,
    String ifRange,
    Map<String, String> headers,
    int status) {

  /** The value of the named request header (any case), or null. */
  public String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }
}
