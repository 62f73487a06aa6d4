package dev.braid.client.remote;

import java.io.IOException;

/**
 * How {@link RpcClient}'s JSON texts reach a daemon and its answers and notifications come back:
 * {@link LocalWire} (the daemon's Unix domain socket) or {@link WebSocketWire} (its port).
 */
interface RpcWire {
  /** What a wire hands back: each text it receives, in order, and the end of the connection. */
  interface Receiver {
    void received(String json);

    void failed(Throwable cause);
  }

  /** Sends one JSON text; callers may send from several threads. */
  void send(String json) throws IOException;

  /** Ends the connection and the wire's threads, without waiting for the daemon. */
  void close();
}
