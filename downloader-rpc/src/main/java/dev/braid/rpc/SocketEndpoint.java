package dev.braid.rpc;

import io.undertow.websockets.WebSocketConnectionCallback;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.StreamSourceFrameChannel;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import io.undertow.websockets.spi.WebSocketHttpExchange;
import java.io.IOException;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.xnio.IoUtils;
import org.xnio.XnioExecutor;

/**
 * JSON-RPC over WebSocket on {@code /jsonrpc}: each text message is a request or a batch, answered
 * on the same connection. A connection hears the notifications once one of its calls has carried
 * the right secret or a key, until that key is revoked (a web page that opens a socket learns
 * nothing of the downloads), and its
 * address's wrong secrets count as any other ({@link Caller}). Calls run on the server's worker
 * threads. Which web pages may open one is {@link Cors#upgrades}' check, before the upgrade.
 *
 * <p>What a client cannot do to the others (each closes only its own connection):
 * <ul>
 *   <li>send a message longer than the request limit, or a binary one (Undertow bounds control
 *       frames to 125 bytes);
 *   <li>take longer than the request timeout over one message, from its first frame to its last;
 *   <li>stay connected past the request timeout without a call that carried the secret or a key:
 *       a socket is for hearing notifications, which need one;
 *   <li>take a place another needs: at most {@link #MAX_OPEN} are open, and a new socket past that
 *       displaces the oldest one that has not shown a secret; it is refused only when every open
 *       socket has ({@link #admit}).
 * </ul>
 */
final class SocketEndpoint implements WebSocketConnectionCallback {
  /**
   * Open connections at most: each may hold a message of up to the request limit while it
   * arrives, so this bounds what they pin (32 MiB at the default 1 MiB); an upgrade past it is refused.
   */
  static final int MAX_OPEN = 32;
  private final Dispatcher dispatcher;
  private final int maxMessageBytes;
  private final Duration unauthorizedDelay;
  private final Duration requestTimeout;
  private final Map<WebSocketChannel, OpenSocket> open = new ConcurrentHashMap<>();

  /** An open socket: who calls on it, and when it opened (the oldest unproven one is displaced first). */
  private record OpenSocket(Caller caller, long openedNanos) {}

  /**
   * @param requestTimeout how long one message may take to arrive whole, and how long a new socket
   *     has to make a call that carries the secret or a key
   */
  SocketEndpoint(Dispatcher dispatcher, int maxMessageBytes, Duration unauthorizedDelay, Duration requestTimeout) {
    this.dispatcher = dispatcher;
    this.maxMessageBytes = maxMessageBytes;
    this.unauthorizedDelay = unauthorizedDelay;
    this.requestTimeout = requestTimeout;
  }

  @Override
  public void onConnect(WebSocketHttpExchange exchange, WebSocketChannel channel) {
    Caller caller = Caller.at(channel.getSourceAddress());
    open.put(channel, new OpenSocket(caller, System.nanoTime()));
    channel.addCloseTask(open::remove);
    long timeout = requestTimeout.toMillis();
    // a call with the secret proves the socket; one without is answered, but the socket is still closed on time
    channel.getIoThread().executeAfter(() -> {
      if (!caller.proven()) {
        IoUtils.safeClose(channel);
      }
    }, timeout, TimeUnit.MILLISECONDS);
    channel.getReceiveSetter().set(new AbstractReceiveListener() {
      /**
       * Closes the socket when the message under way is not whole on time. Only the channel's I/O
       * thread touches it: it starts and completes messages, and runs the timer it sets.
       */
      private XnioExecutor.Key messageDeadline;

      @Override
      protected void onText(WebSocketChannel ch, StreamSourceFrameChannel message) throws IOException {
        messageDeadline = ch.getIoThread().executeAfter(() -> IoUtils.safeClose(ch), timeout, TimeUnit.MILLISECONDS);
        super.onText(ch, message);
      }

      @Override
      protected void onFullTextMessage(WebSocketChannel ch, BufferedTextMessage message) {
        messageDeadline.remove();
        String body = message.getData();
        ch.getWorker().execute(OutOfMemory.reported(() -> answer(ch, caller, body)));
      }

      @Override
      protected long getMaxTextBufferSize() {
        return maxMessageBytes;
      }

      @Override
      protected void onBinary(WebSocketChannel ch, StreamSourceFrameChannel message) {
        // aria2's JSON-RPC is text: a binary message would be buffered whole, unbounded, for nothing
        IoUtils.safeClose(ch);
      }

      @Override
      protected void onError(WebSocketChannel ch, Throwable error) {
        // too long a message, a broken frame: this connection ends, the server goes on
        IoUtils.safeClose(ch);
      }
    });
    channel.resumeReceives();
  }

  private void answer(WebSocketChannel ch, Caller caller, String body) {
    Dispatcher.Reply r = dispatcher.handle(body, caller);
    if (r.unauthorized()) {
      ch.getIoThread().executeAfter(() -> WebSockets.sendText(r.json(), ch, null), unauthorizedDelay.toMillis(),
          TimeUnit.MILLISECONDS);
    } else {
      WebSockets.sendText(r.json(), ch, null);
    }
  }

  /**
   * Whether a new socket may open: there is room, or the oldest socket that has not shown a secret
   * was closed to make some. Called on the server's I/O thread (it has one) before the upgrade; a
   * socket counts from its {@link #onConnect}, so an upgrade still under way when the next is
   * admitted may pass the cap by one. Synchronised all the same: the look and the choice are one
   * step whatever thread calls.
   */
  synchronized boolean admit() {
    if (open.size() < MAX_OPEN) {
      return true;
    }
    Optional<Map.Entry<WebSocketChannel, OpenSocket>> oldest = open.entrySet().stream()
        .filter(e -> !e.getValue().caller().proven())
        .min(Comparator.comparingLong(e -> e.getValue().openedNanos()));
    oldest.ifPresent(e -> {
      open.remove(e.getKey());
      IoUtils.safeClose(e.getKey());
    });
    return oldest.isPresent();
  }

  /** Sends a notification to every open connection that has shown a token that still holds, without waiting for any. */
  void broadcast(String json) {
    for (Map.Entry<WebSocketChannel, OpenSocket> e : open.entrySet()) {
      WebSocketChannel ch = e.getKey();
      if (ch.isOpen() && dispatcher.hears(e.getValue().caller())) {
        WebSockets.sendText(json, ch, null);
      }
    }
  }

  /** Closes every connection (the server is stopping). */
  void closeAll() {
    open.keySet().forEach(IoUtils::safeClose);
  }
}
