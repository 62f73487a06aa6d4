package dev.braid.client.remote;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * JSON-RPC on the daemon's Unix domain socket: one JSON text a line each way. Starts in a few
 * milliseconds where the JDK's WebSocket client took ~0.2 s (its HTTP stack, a selector thread,
 * ~700 classes), which was most of a {@code braid get} through a daemon.
 *
 * <p>Threads: one reader of its own (a daemon thread), which hands each line to the receiver in
 * order; {@link #close()} closes the socket, which ends it.
 */
final class LocalWire implements RpcWire {
  /** An answer's line may be long (a page of 1,000 statuses); a line past this means a broken peer. */
  private static final int MAX_LINE_BYTES = 256 << 20;
  private final SocketChannel channel;
  private final Object writing = new Object();

  private LocalWire(SocketChannel channel) {
    this.channel = channel;
  }

  /** Connects to the socket at {@code path}; fails at once when no daemon listens there. */
  static LocalWire open(Path path, Receiver receiver) throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      ch.connect(UnixDomainSocketAddress.of(path));
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    LocalWire wire = new LocalWire(ch);
    Thread reader = new Thread(() -> wire.read(receiver), "braid-rpc-local-client");
    reader.setDaemon(true);
    reader.start();
    return wire;
  }

  private void read(Receiver receiver) {
    try {
      JsonLines.read(channel, MAX_LINE_BYTES, receiver::received);
      receiver.failed(new IOException("the braid daemon closed the connection"));
    } catch (IOException e) {
      receiver.failed(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      receiver.failed(new IOException("interrupted while reading from the braid daemon", e));
    }
  }

  @Override
  public void send(String json) throws IOException {
    synchronized (writing) {
      JsonLines.write(channel, json);
    }
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // closing: nothing left to do with it
    }
  }
}
