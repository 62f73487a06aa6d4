package dev.braid.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real WebSocket client of an in-process {@link RpcServer} (the JDK's): every text message it
 * hears, answers and notifications alike, in the order they came. Test thread only, but for the
 * JDK's listener thread that fills {@link #heard}.
 */
final class SocketClient implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long WAIT_SECONDS = 10;

  final BlockingQueue<JsonNode> heard = new LinkedBlockingQueue<>();
  private final WebSocket socket;

  private SocketClient(int port, String origin) throws Exception {
    WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder();
    if (origin != null) {
      b.header("Origin", origin);
    }
    StringBuilder partial = new StringBuilder();
    socket = b.buildAsync(URI.create("ws://127.0.0.1:" + port + "/jsonrpc"), new WebSocket.Listener() {
      @Override
      public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
          try {
            heard.add(JSON.readTree(partial.toString()));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          partial.setLength(0);
        }
        ws.request(1);
        return null;
      }
    }).get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** Connects, sending {@code origin} as a browser would (null: none, as other clients). */
  static SocketClient open(int port, String origin) throws Exception {
    return new SocketClient(port, origin);
  }

  void send(String json) throws Exception {
    socket.sendText(json, true).get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** The next message heard, waiting for it (bounded). */
  JsonNode next() throws InterruptedException {
    JsonNode n = heard.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    if (n == null) {
      throw new AssertionError("nothing heard on the WebSocket within " + WAIT_SECONDS + " s");
    }
    return n;
  }

  /** Sends a call and returns the next message heard: its answer, unless a notification came first. */
  JsonNode call(String json) throws Exception {
    send(json);
    return next();
  }

  @Override
  public void close() {
    socket.abort();
  }
}
