package dev.braid.rpc;

import io.undertow.websockets.WebSocketConnectionCallback;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.StreamSourceFrameChannel;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import io.undertow.websockets.spi.WebSocketHttpExchange;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.xnio.IoUtils;

/**
 * JSON-RPC over WebSocket on {@code /jsonrpc}: each text message is a request or a batch, answered
 * on the same connection. A connection hears the notifications once one of its calls has carried
 * the right secret or a key, until that key is revoked (a web page that opens a socket learns
 * nothing of the downloads), and its
 * address's wrong secrets count as any other ({@link Caller}). A message longer than the request
 * limit, or a binary message, closes its connection (Undertow bounds control frames to 125
 * bytes); at most {@link #MAX_OPEN} are open. Calls run on the server's worker threads. Which web
 * pages may open one is {@link Cors#upgrades}' check, before the upgrade.
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
  private final Map<WebSocketChannel, Caller> open = new ConcurrentHashMap<>();

  SocketEndpoint(Dispatcher dispatcher, int maxMessageBytes, Duration unauthorizedDelay) {
    this.dispatcher = dispatcher;
    this.maxMessageBytes = maxMessageBytes;
    this.unauthorizedDelay = unauthorizedDelay;
  }

  @Override
  public void onConnect(WebSocketHttpExchange exchange, WebSocketChannel channel) {
    Caller caller = Caller.at(channel.getSourceAddress());
    open.put(channel, caller);
    channel.addCloseTask(open::remove);
    channel.getReceiveSetter().set(new AbstractReceiveListener() {
      @Override
      protected void onFullTextMessage(WebSocketChannel ch, BufferedTextMessage message) {
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

  /** Whether {@link #MAX_OPEN} connections are open: a new one is refused. */
  boolean full() {
    return open.size() >= MAX_OPEN;
  }

  /** Sends a notification to every open connection that has shown a token that still holds, without waiting for any. */
  void broadcast(String json) {
    for (Map.Entry<WebSocketChannel, Caller> e : open.entrySet()) {
      WebSocketChannel ch = e.getKey();
      if (ch.isOpen() && dispatcher.hears(e.getValue())) {
        WebSockets.sendText(json, ch, null);
      }
    }
  }

  /** Closes every connection (the server is stopping). */
  void closeAll() {
    open.keySet().forEach(IoUtils::safeClose);
  }
}
