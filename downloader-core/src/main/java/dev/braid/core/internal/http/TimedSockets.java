package dev.braid.core.internal.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;
import org.apache.hc.client5.http.io.DetachedSocketFactory;

/**
 * Creates the client's sockets so that each TCP connect is timed into the caller's
 * {@link PhaseRecorder}. A socket for a SOCKS route connects to the proxy and runs our
 * {@link Socks5Handshake} inside {@code connect}, so the handshake is part of the connect time.
 * A download's own proxy ({@link RequestProxy#connecting}) wins over the engine's for its sockets:
 * its SOCKS proxy, or none for a direct download or one whose HTTP proxy is the route's first hop.
 */
final class TimedSockets implements DetachedSocketFactory {
  private final ProxyPlan proxies;

  TimedSockets(ProxyPlan proxies) {
    this.proxies = proxies;
  }

  @Override
  public Socket create(Proxy proxy) throws IOException {
    RequestProxy chosen = RequestProxy.connecting();
    if (chosen.chosen()) {
      ProxyPlan.Proxy own = chosen.proxy();
      return new TimedSocket(own != null && own.socks() ? own : null);
    }
    if (proxy == null || proxy.type() != Proxy.Type.SOCKS) {
      return new TimedSocket(null);
    }
    // HttpClient hands back the address the plan gave it for the route: it finds the credentials
    ProxyPlan.Proxy socks = proxies.socksAt(proxy.address());
    if (socks == null) {
      throw new IOException("no SOCKS proxy is configured at " + proxy.address());
    }
    return new TimedSocket(socks);
  }

  /** A plain socket whose {@link #connect} reports its duration, through a SOCKS5 proxy when it has one. */
  private static final class TimedSocket extends Socket {
    private final ProxyPlan.Proxy socks;

    TimedSocket(ProxyPlan.Proxy socks) {
      this.socks = socks;
    }

    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
      long start = System.nanoTime();
      if (socks == null) {
        super.connect(endpoint, timeout);
      } else {
        super.connect(new InetSocketAddress(socks.host(), socks.port()), timeout);
        // the handshake's replies are bounded by the connect timeout too; the caller sets its own afterwards
        int readTimeout = getSoTimeout();
        setSoTimeout(timeout);
        Socks5Handshake.connect(this, socks, (InetSocketAddress) endpoint);
        setSoTimeout(readTimeout);
      }
      PhaseRecorder.current().connected(System.nanoTime() - start);
    }
  }
}
