package dev.braid.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
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
    ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try {
      while (channel.read(buffer) >= 0) {
        buffer.flip();
        while (buffer.hasRemaining()) {
          byte b = buffer.get();
          if (b == '\n') {
            receiver.received(line.toString(StandardCharsets.UTF_8));
            line.reset();
          } else {
            line.write(b);
          }
        }
        buffer.clear();
      }
      receiver.failed(new IOException("the braid daemon closed the connection"));
    } catch (IOException e) {
      receiver.failed(e);
    }
  }

  @Override
  public void send(String json) throws IOException {
    ByteBuffer bytes = StandardCharsets.UTF_8.encode(json + "\n");
    synchronized (writing) {
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
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
