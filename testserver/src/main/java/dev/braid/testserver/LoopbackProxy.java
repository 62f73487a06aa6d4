package dev.braid.testserver;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the test proxies share: a listener on an ephemeral port of 127.0.0.1, an acceptor thread,
 * a thread per client running {@link #serve}, and {@link #close()} ending them all by closing
 * every socket. Subclasses speak their protocol in {@code serve} and register their target
 * sockets with {@link #track} so that closing the proxy ends the tunnels too.
 */
abstract class LoopbackProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final String name;

  LoopbackProxy(String name) throws IOException {
    this.name = name;
    this.listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0));
    Thread acceptor = new Thread(this::acceptLoop, name + "-" + listener.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Speaks the proxy's protocol with one client; the client socket is closed afterwards. */
  abstract void serve(Socket client) throws IOException, InterruptedException;

  /** Closes {@code s} when the proxy closes. */
  void track(Socket s) {
    open.add(s);
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        open.add(client);
        Thread t = new Thread(() -> serveAndClose(client), name + "-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serveAndClose(Socket client) {
    try (client) {
      serve(client);
    } catch (IOException | InterruptedException | RuntimeException e) {
      // the client or the target went away: the tunnel ends
    } finally {
      open.remove(client);
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : open) {
      s.close();
    }
  }
}
