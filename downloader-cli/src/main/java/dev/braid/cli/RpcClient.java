package dev.braid.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A JSON-RPC client of a {@code braid daemon} over one WebSocket on {@code /jsonrpc}: calls and
 * aria2's notifications share it, so a command hears a download's end the moment it happens
 * (the socket is open before anything is added, so no end is missed). The JDK's WebSocket and
 * Jackson: this path loads neither Apache HttpClient nor SQLite.
 *
 * <p>Threads: the JDK client's own; answers complete the callers' futures and notifications run
 * {@code notifications} on its thread, in order. {@link #close()} ends the socket.
 */
final class RpcClient implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
  static final ObjectMapper JSON = new ObjectMapper();

  private final WebSocket socket;
  private final String token;
  private final Map<Long, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final Object sending = new Object();

  private RpcClient(WebSocket socket, String secret, Receiver receiver) {
    this.socket = socket;
    this.token = "token:" + secret;
    receiver.client = this;
  }

  /** A call the daemon answered with an error: its aria2 code and message. */
  static final class RpcError extends Exception {
    private static final long serialVersionUID = 1L;
    final int code;

    RpcError(int code, String message) {
      super(message);
      this.code = code;
    }
  }

  /** Connects to the daemon on loopback; {@code notifications} gets each notification's method and first gid. */
  static RpcClient connect(DaemonLink.Endpoint endpoint, Consumer<Notification> notifications) throws IOException {
    Receiver receiver = new Receiver(notifications);
    try {
      WebSocket ws = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build().newWebSocketBuilder()
          .buildAsync(URI.create("ws://127.0.0.1:" + endpoint.port() + "/jsonrpc"), receiver)
          .get(10, TimeUnit.SECONDS);
      return new RpcClient(ws, endpoint.secret(), receiver);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("cannot reach the braid daemon on port " + endpoint.port() + ": " + e.getCause(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting to the braid daemon", e);
    }
  }

  /** An aria2 notification: {@code aria2.onDownloadComplete} and the download's gid. */
  record Notification(String method, String gid) {}

  /** Calls {@code method} with the secret and {@code params}; its result, or an {@link RpcError}. */
  JsonNode call(String method, Object... params) throws IOException, RpcError, InterruptedException {
    try {
      return send(method, params).get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RpcError r) {
        throw r;
      }
      throw new IOException("the braid daemon's connection failed: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("the braid daemon did not answer " + method + " within " + CALL_TIMEOUT.toSeconds() + " s");
    }
  }

  /** Sends a call and returns at once; the future completes with its result or an {@link RpcError}. */
  CompletableFuture<JsonNode> send(String method, Object... params) {
    long id = ids.incrementAndGet();
    ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
    ArrayNode p = request.putArray("params").add(token);
    for (Object o : params) {
      p.add(JSON.valueToTree(o));
    }
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    waiting.put(id, answer);
    // the JDK's WebSocket takes one send at a time
    synchronized (sending) {
      try {
        socket.sendText(request.toString(), true).join();
      } catch (java.util.concurrent.CompletionException | IllegalStateException e) {
        waiting.remove(id);
        answer.completeExceptionally(e.getCause() != null ? e.getCause() : e);
      }
    }
    return answer;
  }

  private void received(JsonNode n) {
    if (n.has("id") && waiting.containsKey(n.get("id").asLong())) {
      CompletableFuture<JsonNode> f = waiting.remove(n.get("id").asLong());
      JsonNode error = n.get("error");
      if (error != null) {
        f.completeExceptionally(new RpcError(error.path("code").asInt(), error.path("message").asText()));
      } else {
        f.complete(n.get("result"));
      }
    }
  }

  private void failAll(Throwable t) {
    waiting.values().forEach(f -> f.completeExceptionally(t));
    waiting.clear();
  }

  @Override
  public void close() {
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "").orTimeout(2, TimeUnit.SECONDS).exceptionally(e -> null).join();
    socket.abort();
  }

  /** Gathers each text message (it may come in parts) and routes answers and notifications. */
  private static final class Receiver implements WebSocket.Listener {
    private final Consumer<Notification> notifications;
    private final StringBuilder text = new StringBuilder();
    private volatile RpcClient client;

    Receiver(Consumer<Notification> notifications) {
      this.notifications = notifications;
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        String message = text.toString();
        text.setLength(0);
        route(message);
      }
      ws.request(1);
      return null;
    }

    private void route(String message) {
      JsonNode n;
      try {
        n = JSON.readTree(message);
      } catch (IOException e) {
        // the daemon writes JSON only; anything else answers no call
        return;
      }
      if (n.has("method") && !n.has("id")) {
        notifications.accept(new Notification(n.path("method").asText(), n.path("params").path(0).path("gid").asText()));
        return;
      }
      RpcClient c = client;
      if (c != null) {
        c.received(n);
      }
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
      RpcClient c = client;
      if (c != null) {
        c.failAll(new IOException("the braid daemon closed the connection (" + status + " " + reason + ")"));
      }
      return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
      RpcClient c = client;
      if (c != null) {
        c.failAll(error);
      }
    }
  }
}
