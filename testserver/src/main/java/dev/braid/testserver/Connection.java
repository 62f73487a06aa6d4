package dev.braid.testserver;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;

/** One accepted socket and its thread: reads requests one after another and sends the answers. */
final class Connection implements Runnable {
  private final int id;
  private final TestServer server;
  private final Socket socket;
  private final Thread thread;
  private BufferedInputStream in;
  private BufferedOutputStream out;
  private BodyWriter bodyWriter;
  private long arrival;

  Connection(TestServer server, Socket socket, int id) {
    this.server = server;
    this.socket = socket;
    this.id = id;
    this.thread = new Thread(this, "testserver-conn-" + id);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Stops the connection from another thread: wakes it from sleeps and fails its socket calls. */
  void abort() {
    thread.interrupt();
    closeQuietly();
  }

  /** Waits for the thread to end, at most until {@code deadlineNanos} (System.nanoTime). */
  void join(long deadlineNanos) throws InterruptedException {
    long left = deadlineNanos - System.nanoTime();
    if (left > 0) {
      TimeUnit.NANOSECONDS.timedJoin(thread, left);
    }
  }

  @Override
  public void run() {
    try {
      socket.setTcpNoDelay(true);
      if (socket instanceof SSLSocket tls) {
        socket.setSoTimeout(server.idleTimeoutMillis());
        long start = System.currentTimeMillis();
        // note what the client offers by ALPN, and choose none of it: this server speaks HTTP/1.1
        // without ALPN, like the many that never set it up
        tls.setHandshakeApplicationProtocolSelector((s, offered) -> {
          server.alpnOffered(offered);
          return "";
        });
        tls.startHandshake();
        // a resumed handshake continues an older session, which keeps its creation time
        server.handshakeDone(tls.getSession().getCreationTime() < start);
      }
      in = new BufferedInputStream(socket.getInputStream());
      out = new BufferedOutputStream(socket.getOutputStream());
      bodyWriter = new BodyWriter(this, out, server.bodyBytesCounter());
      while (!server.isClosed() && serveOne()) {
        // Keep-alive: the next request follows on the same socket.
      }
    } catch (IOException | InterruptedException e) {
      // The client went away or the server is closing; neither is worth reporting.
    } finally {
      closeQuietly();
      server.connectionEnded(this);
    }
  }

  /** Reads and answers one request; returns whether the connection may carry another. */
  private boolean serveOne() throws IOException, InterruptedException {
    socket.setSoTimeout(server.idleTimeoutMillis());
    HttpRequest request;
    try {
      request = RequestParser.read(in);
    } catch (RequestParser.BadRequest e) {
      arrival = server.nextArrival();
      return send(e.partial, Response.text(e.status).closeConnection());
    }
    if (request == null) {
      return false;
    }
    arrival = server.nextArrival();
    boolean getOrHead = request.method().equals("GET") || request.isHead();
    Route route = getOrHead ? server.route(request.path()) : Route.METHOD_NOT_ALLOWED;
    server.requestStarted();
    try {
      return route.respond(request, this);
    } finally {
      server.requestEnded();
    }
  }

  /**
   * Records the request with the response's status, then sends the response (no body for HEAD).
   * Returns whether the connection may carry another request.
   */
  boolean send(HttpRequest request, Response response) throws IOException, InterruptedException {
    boolean keepAlive = request.keepAlive() && !response.closesConnection();
    response.header("Date", Response.httpDate(Instant.now()));
    if (!keepAlive) {
      response.header("Connection", "close");
    }
    // Recorded before the first byte goes out, so a client holding the response sees the record.
    server.record(arrival, recordOf(request, response.status));
    response.writeHead(out);
    if (!request.isHead()) {
      if (response.fixedBody() != null) {
        out.write(response.fixedBody());
      } else if (response.body() != null && !bodyWriter.write(response.body())) {
        return false;
      }
    }
    out.flush();
    if (!keepAlive) {
      closeGracefully();
    }
    return keepAlive;
  }

  RequestRecord recordOf(HttpRequest request, int status) {
    return new RequestRecord(id, request.method(), request.target(), request.header("range"),
        request.header("if-range"), request.headers(), status);
  }

  /**
   * Waits up to {@code millis} (at least 1) for the client to close its end; true if it did. Unread
   * request bytes stay buffered for the next request.
   */
  boolean awaitClientGone(long millis) throws InterruptedException {
    try {
      if (in.available() > 0) {
        // The client is alive and has sent more; reading would not tell us anything new.
        Thread.sleep(millis);
        return false;
      }
      socket.setSoTimeout((int) millis);
      in.mark(1);
      if (in.read() < 0) {
        return true;
      }
      in.reset();
      return false;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  /** Resets the connection: SO_LINGER 0 makes close() send RST instead of FIN. */
  void closeAbruptly() throws IOException {
    out.flush();
    socket.setSoLinger(true, 0);
    socket.close();
  }

  /** Ends the connection with a clean FIN after everything written so far. */
  void closeGracefully() throws IOException {
    out.flush();
    socket.shutdownOutput();
    // Closing with unread input would send RST and could destroy the response in flight.
    while (in.available() > 0) {
      in.skip(in.available());
    }
    socket.close();
  }

  private void closeQuietly() {
    try {
      socket.close();
    } catch (IOException e) {
      // Already broken; nothing left to release.
    }
  }
}
