package dev.braid.client.remote;

import com.fasterxml.jackson.jr.ob.JSON;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The JSON-RPC client of a {@code braid daemon} over one connection ({@link RemoteClient}'s): the daemon's local socket
 * ({@link LocalWire}) when it serves one, else a WebSocket to its port ({@link WebSocketWire}, over
 * TLS when the daemon serves it, trusting only the certificate it announced).
 * Calls and aria2's notifications share it, so a face hears a download's end the moment it
 * happens (the connection is open before anything is added, so no end is missed). jackson-jr
 * (maps and lists over jackson-core's streaming parser, without databind's start-up cost); this
 * path loads neither Apache HttpClient nor SQLite.
 *
 * <p>Threads: the wire's; answers complete the callers' futures and notifications run
 * {@code notifications} on the wire's thread, in order. {@link #close()} ends the wire's threads.
 */
final class RpcClient implements AutoCloseable, RpcWire.Receiver {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  private final String token;
  private final Consumer<Notification> notifications;
  private final Map<Long, CompletableFuture<RpcValue>> waiting = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  /** Set once by {@link #connect}, before the client is handed out. */
  private RpcWire wire;

  private RpcClient(String secret, Consumer<Notification> notifications) {
    this.token = "token:" + secret;
    this.notifications = notifications;
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

  /**
   * Connects to the daemon: its local socket if it has one and it answers, else its port on
   * loopback; {@code notifications} gets each notification's method and first gid.
   */
  static RpcClient connect(DaemonLink.Endpoint endpoint, Consumer<Notification> notifications) throws IOException {
    RpcClient client = new RpcClient(endpoint.secret(), notifications);
    if (endpoint.socket() != null) {
      try {
        client.wire = LocalWire.open(endpoint.socket(), client);
        return client;
      } catch (IOException e) {
        // a socket file left by a daemon that was killed, while a new one starts: its port serves the same
      }
    }
    client.wire = WebSocketWire.open(endpoint.port(), endpoint.certificate(), client);
    return client;
  }

  /**
   * Loads and initialises what the first call needs (jackson-jr, the local socket's classes) on a
   * thread of its own, while picocli builds and parses on the caller's: the client's counterpart
   * of {@code Braid.warmUp}. The thread is a daemon thread and ends when it is done; a failure
   * here only leaves the work to the first call, which reports it.
   */
  static void warmUp() {
    Thread t = new Thread(new WarmUp(), "braid-rpc-warm-up");
    t.setDaemon(true);
    t.start();
  }

  /** What {@link #warmUp} runs. */
  private static final class WarmUp implements Runnable {
    @Override
    public void run() {
      try {
        RpcValue.of(JSON.std.anyFrom(JSON.std.asString(Map.of("jsonrpc", "2.0", "id", 1L, "params", List.of("token:")))));
        SocketChannel.open(StandardProtocolFamily.UNIX).close();
      } catch (IOException e) {
        // nothing warmed: the first call does the work and reports what fails
      }
    }
  }

  /** An aria2 notification: {@code aria2.onDownloadComplete} and the download's gid. */
  record Notification(String method, String gid) {}

  /**
   * Calls {@code method} with the secret and {@code params} (strings, numbers, lists and maps of
   * them); its result, or an {@link RpcError}.
   */
  RpcValue call(String method, Object... params) throws IOException, RpcError, InterruptedException {
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
  CompletableFuture<RpcValue> send(String method, Object... params) {
    List<Object> p = new ArrayList<>();
    p.add(token);
    p.addAll(List.of(params));
    return sendAsIs(method, p);
  }

  private CompletableFuture<RpcValue> sendAsIs(String method, List<Object> p) {
    long id = ids.incrementAndGet();
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("jsonrpc", "2.0");
    request.put("id", id);
    request.put("method", method);
    request.put("params", p);
    String text;
    try {
      text = JSON.std.asString(request);
    } catch (IOException e) {
      throw new IllegalArgumentException("a parameter of " + method + " is not JSON: " + e.getMessage(), e);
    }
    CompletableFuture<RpcValue> answer = new CompletableFuture<>();
    waiting.put(id, answer);
    try {
      wire.send(text);
    } catch (IOException e) {
      waiting.remove(id);
      answer.completeExceptionally(e);
    }
    return answer;
  }

  /** A text from the daemon: an answer to a call, or a notification. */
  @Override
  public void received(String message) {
    RpcValue n;
    try {
      n = RpcValue.of(JSON.std.anyFrom(message));
    } catch (IOException e) {
      // the daemon writes JSON only; anything else answers no call
      return;
    }
    if (n.has("method") && !n.has("id")) {
      notifications.accept(new Notification(n.path("method").asText(), n.path("params").path(0).path("gid").asText()));
      return;
    }
    CompletableFuture<RpcValue> f = waiting.remove(n.path("id").asLong());
    if (f == null) {
      return;
    }
    RpcValue error = n.path("error");
    if (error.has("code")) {
      f.completeExceptionally(new RpcError(error.path("code").asInt(), error.path("message").asText()));
    } else {
      f.complete(n.path("result"));
    }
  }

  /** The connection ended: every call still waiting fails with {@code cause}. */
  @Override
  public void failed(Throwable cause) {
    waiting.values().forEach(f -> f.completeExceptionally(cause));
    waiting.clear();
  }

  @Override
  public void close() {
    wire.close();
  }
}
