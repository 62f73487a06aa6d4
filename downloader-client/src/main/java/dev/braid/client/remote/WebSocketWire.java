package dev.braid.client.remote;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * JSON-RPC over the JDK's WebSocket to the daemon's port on loopback ({@code /jsonrpc}): the
 * wire when the daemon serves no local socket. Plain {@code ws://}, or {@code wss://} to a daemon
 * that serves TLS, trusting its announced certificate alone ({@link PinnedCertificate}).
 *
 * <p>Threads: the JDK client's own, in a thread group of this wire; {@link #close()} ends the
 * socket and interrupts the group, which ends the client's selector.
 */
final class WebSocketWire implements RpcWire {
  private final WebSocket socket;
  private final ThreadGroup threads;
  private final Object sending = new Object();

  private WebSocketWire(WebSocket socket, ThreadGroup threads) {
    this.socket = socket;
    this.threads = threads;
  }

  /** Connects to the daemon's port; {@code certificate}: the SHA-256 of the certificate it serves TLS with, or null for ws://. */
  static WebSocketWire open(int port, String certificate, Receiver receiver) throws IOException {
    SSLContext tls;
    try {
      tls = certificate == null ? noTls() : PinnedCertificate.context(certificate);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IOException("cannot set up TLS to the braid daemon: " + e.getMessage(), e);
    }
    ThreadGroup threads = new ThreadGroup("braid-rpc-client");
    CompletableFuture<HttpClient> built = new CompletableFuture<>();
    // the JDK client's selector thread joins the group of the thread that builds it: close() can then end it
    Thread builder = new Thread(threads, () -> {
      try {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(tls);
        // plain ws:// needs no TLS parameters; the JDK's defaults would set its TLS stack up (noTls)
        built.complete((certificate == null ? b.sslParameters(new SSLParameters()) : b).build());
      } catch (RuntimeException e) {
        built.completeExceptionally(e);
      }
    }, "braid-rpc-connect");
    builder.start();
    try {
      WebSocket ws = built.get().newWebSocketBuilder()
          .buildAsync(URI.create((certificate == null ? "ws" : "wss") + "://127.0.0.1:" + port + "/jsonrpc"),
              new Listener(receiver))
          .get(10, TimeUnit.SECONDS);
      return new WebSocketWire(ws, threads);
    } catch (ExecutionException | TimeoutException e) {
      threads.interrupt();
      throw new IOException("cannot reach the braid daemon on port " + port + ": " + e.getCause(), e);
    } catch (InterruptedException e) {
      threads.interrupt();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting to the braid daemon", e);
    }
  }

  /**
   * A plain ws:// socket on loopback, yet the JDK client wants a TLS context and parameters:
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

  @Override
  public void send(String json) throws IOException {
    // the JDK's WebSocket takes one send at a time
    synchronized (sending) {
      try {
        socket.sendText(json, true).join();
      } catch (java.util.concurrent.CompletionException | IllegalStateException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        throw cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
      }
    }
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

  /** Gathers each text message (it may come in parts) for the receiver. */
  private static final class Listener implements WebSocket.Listener {
    private final Receiver receiver;
    private final StringBuilder text = new StringBuilder();

    Listener(Receiver receiver) {
      this.receiver = receiver;
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        String message = text.toString();
        text.setLength(0);
        receiver.received(message);
      }
      ws.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
      receiver.failed(new IOException("the braid daemon closed the connection (" + status + " " + reason + ")"));
      return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
      receiver.failed(error);
    }
  }
}
