package dev.braid.core.internal.http;

import java.io.IOException;

/**
 * The server did not choose HTTP/2 by ALPN: the TLS connection is dropped before a byte of HTTP
 * is sent (an HTTP/2 preface to an HTTP/1.1 server only fails later and obscurely). The caller
 * learns from it that the host speaks HTTP/1.1 only.
 */
public final class H2NotOffered extends IOException {
  H2NotOffered(String host, String chosen) {
    super(host + " did not offer HTTP/2 by ALPN (" + (chosen == null || chosen.isEmpty() ? "no protocol chosen" : chosen)
        + ")");
  }
}
