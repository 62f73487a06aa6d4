package dev.braid.core.http;

import java.io.IOException;
import java.net.Socket;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Builds the TLS stack (SSLContext, trust store) on the first https connection rather than when
 * the client is created: a download over plain http never pays for it, and an https one pays
 * while its TCP connection is already up. One strategy, so one SSLContext and one session cache,
 * serves every connection of the client.
 */
final class LazyTlsStrategy implements TlsSocketStrategy {
  private volatile TlsSocketStrategy delegate;

  @Override
  public SSLSocket upgrade(Socket socket, String target, int port, Object attachment, HttpContext context)
      throws IOException {
    return delegate().upgrade(socket, target, port, attachment, context);
  }

  private TlsSocketStrategy delegate() {
    TlsSocketStrategy d = delegate;
    if (d == null) {
      synchronized (this) {
        d = delegate;
        if (d == null) {
          d = DefaultClientTlsStrategy.createDefault();
          delegate = d;
        }
      }
    }
    return d;
  }
}
