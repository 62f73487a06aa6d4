package dev.braid.rpc;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * JSON-RPC on a Unix domain socket, for clients on this machine: each line a client writes is a
 * request or a batch, answered by a line on the same connection, and every connection hears the
 * notifications as lines; the same {@link Dispatcher}, so the same secret, as the WebSocket. A
 * local client needs no HTTP or WebSocket stack to start: this is how the {@code braid} commands
 * reach a daemon. The socket is a {@link PrivateSocket}: no other user ever connects.
 *
 * <p>Threads: the socket's accept thread, and each connection's two ({@link LocalConnection}).
 * {@link #close()} closes the listening socket, which ends the accept thread, and every connection.
 */
final class LocalEndpoint implements AutoCloseable {
  /** More connections than any set of local commands opens at once; beyond, a connection is closed at once. */
  private static final int MAX_CONNECTIONS = 64;

  private final PrivateSocket socket;
  private final Dispatcher dispatcher;
  private final int maxLineBytes;
  private final Duration unauthorizedDelay;
  private final Set<LocalConnection> open = ConcurrentHashMap.newKeySet();

  private LocalEndpoint(PrivateSocket socket, Dispatcher dispatcher, int maxLineBytes, Duration unauthorizedDelay) {
    this.socket = socket;
    this.dispatcher = dispatcher;
    this.maxLineBytes = maxLineBytes;
    this.unauthorizedDelay = unauthorizedDelay;
  }

  /** Binds {@code path} (replacing what is there) and starts accepting. */
  static LocalEndpoint start(Path path, Dispatcher dispatcher, int maxLineBytes, Duration unauthorizedDelay)
      throws IOException {
    LocalEndpoint endpoint = new LocalEndpoint(PrivateSocket.bind(path), dispatcher, maxLineBytes, unauthorizedDelay);
    endpoint.socket.start("braid-rpc-local", endpoint::accepted);
    return endpoint;
  }

  /** Where it listens. */
  Path path() {
    return socket.path();
  }

  private void accepted(SocketChannel ch) {
    if (open.size() >= MAX_CONNECTIONS) {
      LocalConnection.closeQuietly(ch);
      return;
    }
    LocalConnection c = new LocalConnection(ch, dispatcher, maxLineBytes, unauthorizedDelay, open::remove);
    open.add(c);
    c.start();
  }

  /** Sends a notification to every connection, without waiting for any. */
  void broadcast(String json) {
    for (LocalConnection c : open) {
      c.send(json);
    }
  }

  /** Stops listening, removes the socket file and closes every connection. */
  @Override
  public void close() {
    socket.close();
    open.forEach(LocalConnection::close);
  }
}
