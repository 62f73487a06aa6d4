package dev.braid.testserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The listening side of a {@link TestServer}: a socket on 127.0.0.1 and the thread that accepts
 * on it, handing each connection to the server. It can go away (stop listening, so connections are
 * refused) and come back on the same port, as a host that went down.
 *
 * <p>Threads: one acceptor while listening, ended by closing its socket; one comeback thread
 * while away, ended by {@link #close} (interrupted: it stays away). State changes under {@code this}.
 */
final class Listener {
  private static final int BACKLOG = 128;
  private static final long ACCEPT_RETRY_MILLIS = 10;

  /** Makes an unbound listening socket (plain or TLS): once at start, again after each {@link #goAway}. */
  private final Callable<ServerSocket> sockets;
  private final int port;
  private Consumer<Socket> accepted;
  /** The socket listening now (closed while away). */
  private volatile ServerSocket socket;
  private volatile Thread acceptor;
  /** Brings the listener back after {@link #goAway}; null when it is not away. */
  private Thread comeback;
  private boolean closed;

  /** Binds an ephemeral port; nothing is accepted before {@link #start}. */
  Listener(Callable<ServerSocket> sockets) throws IOException {
    this.sockets = sockets;
    this.socket = bind(sockets, 0);
    this.port = socket.getLocalPort();
  }

  /** Starts accepting, each connection to {@code accepted} (on the acceptor thread). */
  synchronized void start(Consumer<Socket> accepted) {
    this.accepted = accepted;
    acceptor = acceptorOf(socket);
    acceptor.start();
  }

  /** The port bound; the same after {@link #goAway}. */
  int port() {
    return port;
  }

  /** Stops listening until {@code d} has passed, waiting up to {@code waitNanos} for the acceptor to end. */
  synchronized void goAway(Duration d, long waitNanos) throws IOException {
    if (comeback != null || closed) {
      throw new IllegalStateException("the server is away or closed already");
    }
    socket.close();
    join(acceptor, waitNanos);
    comeback = new Thread(() -> comeBackAfter(d), "testserver-comeback-" + port);
    comeback.setDaemon(true);
    comeback.start();
  }

  synchronized boolean isAway() {
    return comeback != null;
  }

  /** Stops listening for good, waiting up to {@code waitNanos} for the acceptor, so that nothing is accepted after it returns. */
  void close(long waitNanos) {
    Thread last;
    synchronized (this) {
      closed = true;
      if (comeback != null) {
        comeback.interrupt();
      }
      try {
        socket.close();
      } catch (IOException e) {
        // closing is all we wanted from it
      }
      last = acceptor;
    }
    if (last != null) {
      join(last, waitNanos);
    }
  }

  private void comeBackAfter(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      // closed meanwhile: stays away
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      try {
        socket = bind(sockets, port);
        acceptor = acceptorOf(socket);
        acceptor.start();
      } catch (IOException e) {
        throw new UncheckedIOException("could not listen on port " + port + " again", e);
      } finally {
        comeback = null;
      }
    }
  }

  /** A new listening socket on 127.0.0.1:{@code port} (0: an ephemeral one), reusing a port just closed. */
  private static ServerSocket bind(Callable<ServerSocket> sockets, int port) throws IOException {
    ServerSocket s;
    try {
      s = sockets.call();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
    try {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port), BACKLOG);
    } catch (IOException e) {
      s.close();
      throw e;
    }
    return s;
  }

  private Thread acceptorOf(ServerSocket s) {
    Thread t = new Thread(() -> acceptLoop(s), "testserver-acceptor-" + port);
    t.setDaemon(true);
    return t;
  }

  /** Accepts on {@code s} until it is closed (the server closed or went away). */
  private void acceptLoop(ServerSocket s) {
    while (!s.isClosed()) {
      Socket connection;
      try {
        connection = s.accept();
      } catch (IOException e) {
        if (s.isClosed()) {
          return;
        }
        // e.g. out of file descriptors: back off briefly rather than spin
        pause();
        continue;
      }
      accepted.accept(connection);
    }
  }

  private static void join(Thread t, long waitNanos) {
    try {
      TimeUnit.NANOSECONDS.timedJoin(t, waitNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void pause() {
    try {
      Thread.sleep(ACCEPT_RETRY_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
