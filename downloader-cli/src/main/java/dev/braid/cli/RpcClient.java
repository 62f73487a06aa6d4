package dev.braid.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * A JSON-RPC client of a {@code braid daemon} over one WebSocket on {@code /jsonrpc}: calls and
 * aria2's notifications share it, so a command hears a download's end the moment it happens
 * (the socket is open before anything is added, so no end is missed). The JDK's WebSocket and
 * jackson-jr (maps and lists over jackson-core's streaming parser, without databind's start-up
 * cost); this path loads neither Apache HttpClient nor SQLite.
 *
 * <p>Threads: the JDK client's own, in a thread group of this client; answers complete the
 * callers' futures and notifications run {@code notifications} on its thread, in order.
 * {@link #close()} ends the socket and interrupts the group, which ends the client's selector.
 */
final class RpcClient implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
  /** Calls per {@code system.multicall} message: a few hundred bytes each, against the daemon's 1 MiB limit. */
  static final int CALLS_PER_MESSAGE = 200;

  private final WebSocket socket;
  private final ThreadGroup threads;
  private final String token;
  private final Map<Long, CompletableFuture<RpcValue>> waiting = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final Object sending = new Object();

  private RpcClient(WebSocket socket, ThreadGroup threads, String secret, Receiver receiver) {
    this.socket = socket;
    this.threads = threads;
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
    ThreadGroup threads = new ThreadGroup("braid-rpc-client");
    CompletableFuture<HttpClient> built = new CompletableFuture<>();
    // the JDK client's selector thread joins the group of the thread that builds it: close() can then end it
    Thread builder = new Thread(threads, () -> {
      try {
        built.complete(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(noTls())
            .sslParameters(new SSLParameters()).build());
      } catch (RuntimeException e) {
        built.completeExceptionally(e);
      }
    }, "braid-rpc-connect");
    builder.start();
    try {
      WebSocket ws = built.get().newWebSocketBuilder()
          .buildAsync(URI.create("ws://127.0.0.1:" + endpoint.port() + "/jsonrpc"), receiver)
          .get(10, TimeUnit.SECONDS);
      return new RpcClient(ws, threads, endpoint.secret(), receiver);
    } catch (ExecutionException | TimeoutException e) {
      threads.interrupt();
      throw new IOException("cannot reach the braid daemon on port " + endpoint.port() + ": " + e.getCause(), e);
    } catch (InterruptedException e) {
      threads.interrupt();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting to the braid daemon", e);
    }
  }

  /**
   * The socket is plain ws:// on loopback, yet the JDK client wants a TLS context and parameters:
   * a context that refuses every use, so that neither the JVM's TLS stack nor its trust store is
   * set up (~0.2 s of the client's start).
   */
  private static SSLContext noTls() {
    return new SSLContext(new NoTls(), null, "none") { };
  }

  /** Every TLS operation refused: this client only speaks ws:// to loopback. */
  private static final class NoTls extends SSLContextSpi {
    private static UnsupportedOperationException refused() {
      return new UnsupportedOperationException("the daemon's client speaks plain ws:// on loopback only");
    }

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) {
      throw refused();
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      throw refused();
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      throw refused();
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      throw refused();
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      throw refused();
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

  /**
   * Calls {@code method(arg)} once for each of {@code args}, {@value #CALLS_PER_MESSAGE} calls to a
   * {@code system.multicall} (a batch's follower asked after each of 1,000 downloads one message
   * at a time; a message stays well under the daemon's 1 MiB request limit). Each result in
   * order: the call's value, or its {@link RpcError}.
   */
  List<Object> callEach(String method, List<String> args) throws IOException, RpcError, InterruptedException {
    List<List<Object>> params = new ArrayList<>();
    for (String a : args) {
      params.add(List.of(a));
    }
    List<Object> out = new ArrayList<>();
    for (CompletableFuture<RpcValue> f : sendEach(method, params)) {
      try {
        out.add(f.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof RpcError r)) {
          throw new IOException("the braid daemon's connection failed: " + e.getCause().getMessage(), e.getCause());
        }
        out.add(r);
      } catch (TimeoutException e) {
        throw new IOException("the braid daemon did not answer " + method + " within " + CALL_TIMEOUT.toSeconds() + " s");
      }
    }
    return out;
  }

  /**
   * Sends {@code method} once with each of {@code paramsEach} (the secret put first in each), in
   * {@code system.multicall}s of {@value #CALLS_PER_MESSAGE}, and returns at once: a future per
   * call, in order, completing with its result or an {@link RpcError}.
   */
  List<CompletableFuture<RpcValue>> sendEach(String method, List<List<Object>> paramsEach) {
    List<CompletableFuture<RpcValue>> out = new ArrayList<>();
    for (int from = 0; from < paramsEach.size(); from += CALLS_PER_MESSAGE) {
      List<List<Object>> chunk = paramsEach.subList(from, Math.min(paramsEach.size(), from + CALLS_PER_MESSAGE));
      List<Object> calls = new ArrayList<>();
      for (List<Object> p : chunk) {
        List<Object> withToken = new ArrayList<>();
        withToken.add(token);
        withToken.addAll(p);
        calls.add(Map.of("methodName", method, "params", withToken));
      }
      // the calls carry the secret each; system.multicall itself takes none
      CompletableFuture<RpcValue> answers = sendAsIs("system.multicall", List.of(calls));
      for (int i = 0; i < chunk.size(); i++) {
        int at = i;
        out.add(answers.thenCompose(a -> {
          RpcValue one = a.path(at);
          return one.has("code")
              ? CompletableFuture.<RpcValue>failedFuture(new RpcError(one.path("code").asInt(), one.path("message").asText()))
              : CompletableFuture.completedFuture(one.path(0));
        }));
      }
    }
    return out;
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
    // the JDK's WebSocket takes one send at a time
    synchronized (sending) {
      try {
        socket.sendText(text, true).join();
      } catch (java.util.concurrent.CompletionException | IllegalStateException e) {
        waiting.remove(id);
        answer.completeExceptionally(e.getCause() != null ? e.getCause() : e);
      }
    }
    return answer;
  }

  private void received(RpcValue n) {
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

  private void failAll(Throwable t) {
    waiting.values().forEach(f -> f.completeExceptionally(t));
    waiting.clear();
  }

  /**
   * Ends the socket without waiting for the daemon's side of the close handshake, and the JDK
   * client's selector thread with it: a thread left blocked in a system call holds the JVM's
   * exit for ~0.3 s (HotSpot waits for threads in native code before it exits).
   */
  @Override
  public void close() {
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "");
    socket.abort();
    threads.interrupt();
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
