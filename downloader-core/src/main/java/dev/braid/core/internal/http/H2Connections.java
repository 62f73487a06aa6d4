package dev.braid.core.internal.http;

import dev.braid.core.time.Ticker;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.reactor.IOSession;
import org.apache.hc.core5.reactor.IOSessionListener;

/**
 * The HTTP/2 client's open connections, told by its reactor (connect, disconnect) and by its TLS
 * strategy (the handshake), found again by a stream through its local address, which the
 * stream's context knows. The reactor runs connect, TLS and every stream's I/O outside the
 * download threads, so this is how a download learns what its streams' connections cost and
 * whether one has stalled. Reactor threads write; any thread reads.
 */
final class H2Connections implements IOSessionListener {
  private final Map<SocketAddress, H2Connection> open = new ConcurrentHashMap<>();
  /** What a connection's age and silence are measured with, here and by its streams. */
  final Ticker ticker;

  H2Connections(Ticker ticker) {
    this.ticker = ticker;
  }

  /** The connection a stream runs on, known once its exchange has a connection; null before. */
  H2Connection of(HttpContext context) {
    EndpointDetails endpoint = HttpCoreContext.cast(context).getEndpointDetails();
    SocketAddress local = endpoint == null ? null : endpoint.getLocalAddress();
    return local == null ? null : open.get(local);
  }

  /** The TLS handshake of the session at {@code local} began at {@code start} and took {@code nanos}. */
  void handshake(SocketAddress local, long start, long nanos, boolean resumed) {
    H2Connection c = local == null ? null : open.get(local);
    if (c != null) {
      c.tls(start, nanos, resumed);
    }
  }

  @Override
  public void connected(IOSession session) {
    SocketAddress local = session.getLocalAddress();
    if (local != null) {
      open.put(local, new H2Connection(session, ticker.read()));
    }
  }

  @Override
  public void disconnected(IOSession session) {
    // by identity: a closed channel may no longer tell its local address
    open.values().removeIf(c -> c.runsOn(session));
  }

  @Override
  public void startTls(IOSession session) {}

  @Override
  public void inputReady(IOSession session) {}

  @Override
  public void outputReady(IOSession session) {}

  @Override
  public void timeout(IOSession session) {}

  @Override
  public void exception(IOSession session, Exception cause) {}
}
