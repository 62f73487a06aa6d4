package dev.braid.core.internal.http;

import java.net.SocketAddress;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.http2.ssl.ApplicationProtocol;
import org.apache.hc.core5.net.NamedEndpoint;
import org.apache.hc.core5.reactor.IOSession;
import org.apache.hc.core5.reactor.ssl.TlsDetails;
import org.apache.hc.core5.reactor.ssl.TransportSecurityLayer;
import org.apache.hc.core5.util.Timeout;

/**
 * The HTTP/2 client's TLS strategy, failing a handshake in which the server did not choose
 * {@code h2}. httpclient5's HTTP/2-only client does not check ALPN: it sends its preface to an
 * HTTP/1.1 server anyway and fails with "connection closed", which says nothing about why. It
 * also times each handshake for {@link H2Connections}: the reactor runs it outside any download.
 */
final class AlpnH2Guard implements TlsStrategy {
  private final TlsStrategy delegate;
  private final H2Connections connections;

  AlpnH2Guard(TlsStrategy delegate, H2Connections connections) {
    this.delegate = delegate;
    this.connections = connections;
  }

  @Override
  public void upgrade(TransportSecurityLayer session, NamedEndpoint endpoint, Object attachment, Timeout timeout,
      FutureCallback<TransportSecurityLayer> callback) {
    long startMillis = System.currentTimeMillis();
    // on the connections' ticker: H2Connection.claim compares it with the connect time
    long start = connections.ticker.read();
    delegate.upgrade(session, endpoint, attachment, timeout, new FutureCallback<>() {
      @Override
      public void completed(TransportSecurityLayer result) {
        TlsDetails details = result.getTlsDetails();
        String chosen = details == null ? null : details.getApplicationProtocol();
        if (ApplicationProtocol.HTTP_2.id.equals(chosen)) {
          if (session instanceof IOSession io && details.getSSLSession() != null) {
            connections.handshake(io.getLocalAddress(), start, connections.ticker.read() - start,
                LazyTlsStrategy.resumed(details.getSSLSession(), startMillis));
          }
          callback.completed(result);
        } else {
          callback.failed(new H2NotOffered(endpoint.getHostName() + ":" + endpoint.getPort(), chosen));
        }
      }

      @Override
      public void failed(Exception e) {
        callback.failed(e);
      }

      @Override
      public void cancelled() {
        callback.cancelled();
      }
    });
  }

  /** The older form, which httpclient5 5.6's connection pool does not call: passed through unchecked. */
  @Deprecated
  @Override
  public boolean upgrade(TransportSecurityLayer session, HttpHost host, SocketAddress local, SocketAddress remote,
      Object attachment, Timeout timeout) {
    return delegate.upgrade(session, host, local, remote, attachment, timeout);
  }
}
