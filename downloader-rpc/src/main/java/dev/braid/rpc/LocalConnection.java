package dev.braid.rpc;

import dev.braid.client.remote.JsonLines;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;

/**
 * One client of {@link LocalEndpoint}: newline-delimited JSON-RPC. A line longer than the request
 * limit, or a client that reads so little that its answers and notifications pile up, closes the
 * connection; the daemon goes on.
 *
 * <p>Threads: a reader, which runs the calls in the order they came (an answer to a wrong secret
 * is held back on it, so a guesser gets one try per delay), and a writer, the only one that
 * writes, fed by a bounded queue so that a notification never waits for a client. Either ends
 * the connection when its side fails; {@link #close()} ends both.
 */
final class LocalConnection {
  /** Lines waiting for a slow client; more and it is closed. */
  private static final int BACKLOG = 1024;

  private final SocketChannel channel;
  private final Dispatcher dispatcher;
  private final int maxLineBytes;
  private final Duration unauthorizedDelay;
  private final Consumer<LocalConnection> closed;
  private final Caller caller = Caller.local();
  private final BlockingQueue<String> outgoing = new ArrayBlockingQueue<>(BACKLOG);
  private final Thread reader;
  private final Thread writer;

  LocalConnection(SocketChannel channel, Dispatcher dispatcher, int maxLineBytes, Duration unauthorizedDelay,
      Consumer<LocalConnection> closed) {
    this.channel = channel;
    this.dispatcher = dispatcher;
    this.maxLineBytes = maxLineBytes;
    this.unauthorizedDelay = unauthorizedDelay;
    this.closed = closed;
    this.reader = new Thread(this::read, "braid-rpc-local-read");
    this.writer = new Thread(this::write, "braid-rpc-local-write");
    reader.setDaemon(true);
    writer.setDaemon(true);
  }

  void start() {
    writer.start();
    reader.start();
  }

  /** Queues a line for the client; a client this far behind is closed. */
  void send(String json) {
    if (!outgoing.offer(json)) {
      close();
    }
  }

  private void read() {
    try {
      // a line past the request limit ends the connection
      JsonLines.read(channel, maxLineBytes, this::answer);
    } catch (IOException e) {
      // the client went away, or close() closed the channel
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      close();
    }
  }

  private void answer(String body) throws InterruptedException {
    if (body.isBlank()) {
      return;
    }
    Dispatcher.Reply r = dispatcher.handle(body, caller);
    if (r.unauthorized()) {
      Thread.sleep(unauthorizedDelay.toMillis());
    }
    send(r.json());
  }

  private void write() {
    try {
      while (true) {
        JsonLines.write(channel, outgoing.take());
      }
    } catch (IOException | InterruptedException e) {
      // the client went away, or close() ended this thread
    } finally {
      close();
    }
  }

  /**
   * Closes the connection. The writer is interrupted (it touches nothing but this socket); the
   * reader is not, as it may be inside the engine's file and store calls: it sees the closed
   * socket when its call or an unauthorized delay ends.
   */
  void close() {
    closed.accept(this);
    closeQuietly(channel);
    writer.interrupt();
  }

  static void closeQuietly(SocketChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      // closing: nothing left to do with it
    }
  }
}
