package dev.braid.core.internal.http;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * Sends a GET and returns once the response head has arrived: what the probe and the ranged
 * requests need of a transport. A download holds one, which decides the HTTP version of each of
 * its requests.
 */
@FunctionalInterface
public interface Requester {
  /**
   * @param headers the engine's own headers (Range, If-Range), sent on every hop
   * @param userHeaders the user's headers, sent only to their own origin
   * @throws RedirectProblem when the redirects cannot be followed (a loop, too many, a downgrade)
   * @throws H2NotOffered when the request went over HTTP/2 and the server chose another version by ALPN
   */
  Exchange get(URI uri, Map<String, String> headers, OriginHeaders userHeaders, PhaseRecorder recorder) throws IOException;
}
