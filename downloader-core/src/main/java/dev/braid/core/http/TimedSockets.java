package dev.braid.core.http;

import java.io.IOException;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;
import org.apache.hc.client5.http.io.DetachedSocketFactory;

/**
 * Creates the client's sockets so that each TCP connect is timed into the caller's
 * {@link PhaseRecorder} (a SOCKS proxy's handshake, when there is one, is part of the connect).
 */
final class TimedSockets implements DetachedSocketFactory {
  @Override
  public Socket create(Proxy proxy) {
    return proxy == null ? new TimedSocket() : new TimedSocket(proxy);
  }

  /** A plain socket whose {@link #connect} reports its duration. */
  private static final class TimedSocket extends Socket {
    TimedSocket() {
    }

    TimedSocket(Proxy proxy) {
      super(proxy);
    }

    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
      long start = System.nanoTime();
      super.connect(endpoint, timeout);
      PhaseRecorder.current().connected(System.nanoTime() - start);
    }
  }
}
