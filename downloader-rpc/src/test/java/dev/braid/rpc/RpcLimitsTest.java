package dev.braid.rpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.Braid;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's limits against raw, hostile connections: stalled heads, bodies and idle
 * connections closed on time, the connection cap, the shared body budget, a declared length over
 * the limit, WebSockets. Short timeouts so that each test takes about a second.
 */
class RpcLimitsTest {
  private static final String HEAD = "POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path work;
  private Braid braid;
  private RpcServer rpc;
  private final List<Socket> raw = new ArrayList<>();
  private final RpcCalls calls = new RpcCalls(() -> rpc.port(), "k");

  private void start(RpcSettings.Builder settings) throws Exception {
    braid = Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work).build();
    rpc = RpcServer.start(braid, settings.port(0).build(), () -> { });
  }

  private static RpcSettings.Builder settings(Path work) {
    return RpcSettings.builder(work, "k").unauthorizedDelay(Duration.ZERO);
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket s : raw) {
      s.close();
    }
    rpc.close();
    braid.close();
  }

  /** A raw connection to the server that has sent {@code text}, or nothing. */
  private Socket open(String text) throws IOException {
    Socket s = new Socket();
    raw.add(s);
    s.connect(new InetSocketAddress("127.0.0.1", rpc.port()), 2000);
    if (!text.isEmpty()) {
      s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
    }
    return s;
  }

  /** Seconds until the server closes {@code s} (reads to its end, ignoring any answer); fails after {@code limit}. */
  private static double secondsUntilClosed(Socket s, Duration limit) throws IOException {
    long t0 = System.nanoTime();
    s.setSoTimeout((int) limit.toMillis());
    InputStream in = s.getInputStream();
    byte[] buf = new byte[4096];
    try {
      while (in.read(buf) >= 0) {
        // an answer (408, 400) may come before the close
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server kept the connection open past " + limit);
    } catch (IOException e) {
      // a reset is a close too
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /** The status line the server answers on {@code s}, read within {@code limit}. */
  private static String statusLine(Socket s, Duration limit) throws IOException {
    s.setSoTimeout((int) limit.toMillis());
    StringBuilder line = new StringBuilder();
    InputStream in = s.getInputStream();
    for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
      line.append((char) c);
    }
    return line.toString();
  }

  @Test
  void stalledHeadsBodiesAndSilentConnectionsAreClosedOnTime() throws Exception {
    start(settings(work).requestTimeout(Duration.ofMillis(600)).idleTimeout(Duration.ofMillis(900)));
    Socket head = open("POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    Socket body = open(HEAD + "Content-Length: 100\r\n\r\n{\"jsonrpc\":");
    Socket silent = open("");
    assertTrue(secondsUntilClosed(head, Duration.ofSeconds(5)) < 2.5, "a stalled head is closed after the request timeout");
    assertTrue(secondsUntilClosed(body, Duration.ofSeconds(5)) < 2.5, "a stalled body is closed after the request timeout");
    assertTrue(secondsUntilClosed(silent, Duration.ofSeconds(5)) < 2.5, "a connection without a request is closed when idle");
    assertTrue(calls.call("aria2.getVersion").has("version"), "the server goes on");
  }

  @Test
  void aDeclaredLengthOverTheLimitIsRefusedAtOnceWithoutReadingIt() throws Exception {
    start(settings(work).maxRequestBytes(4096));
    Socket s = open(HEAD + "Content-Length: 4097\r\n\r\n");
    assertTrue(statusLine(s, Duration.ofSeconds(2)).startsWith("HTTP/1.1 413"), "refused before any byte of the body");
    Socket chunked = open(HEAD + "Transfer-Encoding: chunked\r\n\r\n1001\r\n" + "x".repeat(4097) + "\r\n0\r\n\r\n");
    // Undertow ends the connection of a chunked body past the limit as soon as it counts past it
    assertTrue(secondsUntilClosed(chunked, Duration.ofSeconds(2)) < 1, "a chunked body past the limit is cut off");
  }

  @Test
  void bodiesPastTheirFreePartShareOneBudgetAndOrdinaryCallsGoOn() throws Exception {
    start(settings(work).requestTimeout(Duration.ofSeconds(20)));
    // each sends 900 KiB of a declared 1 MiB and stalls: the budget (16 MiB) takes 18 of them
    byte[] part = new byte[900 << 10];
    java.util.Arrays.fill(part, (byte) ' ');
    List<Socket> big = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      Socket s = open(HEAD + "Content-Length: " + (1 << 20) + "\r\n\r\n");
      s.getOutputStream().write(part);
      big.add(s);
    }
    // 18 fit (16 MiB / 892 KiB past the free 8 KiB): 6 answered, the rest held unanswered
    List<Socket> answered = await("6 bodies answered").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
        .until(() -> {
          List<Socket> now = new ArrayList<>();
          for (Socket s : big) {
            if (s.getInputStream().available() > 0) {
              now.add(s);
            }
          }
          return now;
        }, now -> now.size() >= 6);
    int refused = 0;
    for (Socket s : answered) {
      refused += statusLine(s, Duration.ofSeconds(1)).startsWith("HTTP/1.1 503") ? 1 : 0;
    }
    assertEquals(6, refused, "the bodies past the budget are refused with 503");
    assertTrue(calls.call("aria2.getVersion").has("version"), "a call of ordinary size needs no budget");
  }

  @Test
  void aRequestOfMoreCallsOrTokensThanTheLimitsIsRefusedWhole() throws Exception {
    start(settings(work));
    // 10,001 calls: answers of a few hundred bytes each; 500,000 two-byte calls fit 1 MiB
    String batch = "[" + "0,".repeat(Dispatcher.MAX_CALLS) + "0]";
    HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rpc.port() + "/jsonrpc"))
        .POST(HttpRequest.BodyPublishers.ofString(batch)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(400, answer.statusCode());
    assertTrue(answer.body().contains(Dispatcher.TOO_MANY_CALLS) && answer.body().length() < 200, answer.body());
    String multicall = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"system.multicall\",\"params\":[["
        + "{},".repeat(Dispatcher.MAX_CALLS) + "{}]]}";
    answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rpc.port() + "/jsonrpc"))
        .POST(HttpRequest.BodyPublishers.ofString(multicall)).build(), HttpResponse.BodyHandlers.ofString());
    assertTrue(answer.body().contains(Dispatcher.TOO_MANY_CALLS) && answer.body().length() < 200, answer.body());
    // 400,000 tokens: refused by the parser before it builds a tree of some 20 MB
    String deep = "[" + "[],".repeat(200_000) + "[]]";
    answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rpc.port() + "/jsonrpc"))
        .POST(HttpRequest.BodyPublishers.ofString(deep)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(400, answer.statusCode());
    assertTrue(answer.body().contains(Dispatcher.TOO_MANY_TOKENS), answer.body());
    String allowed = "[" + "0,".repeat(Dispatcher.MAX_CALLS - 1) + "0]";
    answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rpc.port() + "/jsonrpc"))
        .POST(HttpRequest.BodyPublishers.ofString(allowed)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, answer.statusCode(), "a batch of the limit is answered, call by call");
  }

  @Test
  void connectionsPastTheCapWaitUntilOneEnds() throws Exception {
    start(settings(work).maxConnections(20).idleTimeout(Duration.ofSeconds(30)));
    List<Socket> idle = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      idle.add(open(""));
    }
    HttpRequest version = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rpc.port() + "/jsonrpc"))
        .timeout(Duration.ofMillis(800)).POST(HttpRequest.BodyPublishers.ofString(calls.request("aria2.getVersion").toString()))
        .build();
    assertThrows(HttpTimeoutException.class, () -> HTTP.send(version, HttpResponse.BodyHandlers.ofString()),
        "the 21st connection is not served while 20 are open");
    for (Socket s : idle.subList(0, 5)) {
      s.close();
    }
    HttpRequest again = HttpRequest.newBuilder(version, (n, v) -> true).timeout(Duration.ofSeconds(5)).build();
    assertEquals(200, HTTP.send(again, HttpResponse.BodyHandlers.ofString()).statusCode());
  }

  @Test
  void anIdleWebSocketOutlivesTheIdleTimeout() throws Exception {
    start(settings(work).idleTimeout(Duration.ofMillis(300)));
    CompletableFuture<String> answer = new CompletableFuture<>();
    WebSocket socket = HTTP.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + rpc.port() + "/jsonrpc"),
        new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            answer.complete(data.toString());
            return null;
          }
        }).get(5, TimeUnit.SECONDS);
    // a WebSocket client (AriaNg) waits for notifications for hours: the idle timeout is for HTTP only.
    // Over three idle timeouts the socket stays open (Undertow's timer runs on its own clock)
    await("the WebSocket stays open").during(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(3))
        .until(() -> !socket.isInputClosed() && !socket.isOutputClosed());
    socket.sendText(calls.request("aria2.getVersion").toString(), true);
    assertTrue(answer.get(5, TimeUnit.SECONDS).contains("version"));
    socket.abort();
  }

  /** A WebSocket to the server whose end (a close or an error) completes {@code ended}, and whose messages go to {@code heard}. */
  private WebSocket socket(CompletableFuture<Void> ended, BlockingQueue<String> heard) throws Exception {
    return HTTP.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + rpc.port() + "/jsonrpc"),
        new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            heard.add(data.toString());
            w.request(1);
            return null;
          }

          @Override
          public CompletionStage<?> onClose(WebSocket w, int status, String reason) {
            ended.complete(null);
            return null;
          }

          @Override
          public void onError(WebSocket w, Throwable error) {
            ended.complete(null);
          }
        }).get(5, TimeUnit.SECONDS);
  }

  /** Makes a call with the secret on {@code w} and waits for its answer: the socket has shown the secret. */
  private void prove(WebSocket w, BlockingQueue<String> heard) throws Exception {
    w.sendText(calls.request("aria2.getVersion").toString(), true).get(5, TimeUnit.SECONDS);
    String answer = heard.poll(5, TimeUnit.SECONDS);
    assertTrue(answer != null && answer.contains("version"), "answered with the secret: " + answer);
  }

  @Test
  void aSocketThatShowsNoSecretInTimeIsClosedAndOneThatDidStays() throws Exception {
    start(settings(work).requestTimeout(Duration.ofSeconds(1)));
    CompletableFuture<Void> silentEnded = new CompletableFuture<>();
    CompletableFuture<Void> wrongEnded = new CompletableFuture<>();
    CompletableFuture<Void> provenEnded = new CompletableFuture<>();
    BlockingQueue<String> wrongHeard = new LinkedBlockingQueue<>();
    BlockingQueue<String> provenHeard = new LinkedBlockingQueue<>();
    WebSocket proven = socket(provenEnded, provenHeard);
    prove(proven, provenHeard);
    socket(silentEnded, new LinkedBlockingQueue<>());
    WebSocket wrong = socket(wrongEnded, wrongHeard);
    wrong.sendText(new RpcCalls(() -> rpc.port(), "not-the-secret").request("aria2.getVersion").toString(), true);
    assertTrue(wrongHeard.poll(5, TimeUnit.SECONDS).contains("Unauthorized"), "a wrong secret is answered");
    silentEnded.get(5, TimeUnit.SECONDS);
    wrongEnded.get(5, TimeUnit.SECONDS);
    await("the socket that showed the secret stays open").during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
        .until(() -> !provenEnded.isDone());
    prove(proven, provenHeard);
  }

  @Test
  void aMessageNotWholeWithinTheRequestTimeoutClosesItsSocket() throws Exception {
    start(settings(work).requestTimeout(Duration.ofSeconds(1)));
    CompletableFuture<Void> stalledEnded = new CompletableFuture<>();
    CompletableFuture<Void> splitEnded = new CompletableFuture<>();
    BlockingQueue<String> stalledHeard = new LinkedBlockingQueue<>();
    BlockingQueue<String> splitHeard = new LinkedBlockingQueue<>();
    WebSocket stalled = socket(stalledEnded, stalledHeard);
    prove(stalled, stalledHeard);
    WebSocket split = socket(splitEnded, splitHeard);
    prove(split, splitHeard);
    // the first part of a call, and nothing more: a socket that has shown the secret is no exception
    stalled.sendText("{\"jsonrpc\":\"2.0\",", false).get(5, TimeUnit.SECONDS);
    stalledEnded.get(5, TimeUnit.SECONDS);
    // a message in two frames sent at once is whole in time, and the socket goes on past the timeout
    String call = calls.request("aria2.getVersion").toString();
    split.sendText(call.substring(0, 10), false).get(5, TimeUnit.SECONDS);
    split.sendText(call.substring(10), true).get(5, TimeUnit.SECONDS);
    assertTrue(splitHeard.poll(5, TimeUnit.SECONDS).contains("version"), "a message in two frames is answered");
    await("the socket whose messages came whole stays open").during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
        .until(() -> !splitEnded.isDone());
  }

  @Test
  void aBinaryWebSocketMessageClosesItsSocket() throws Exception {
    start(settings(work));
    CompletableFuture<Void> ended = new CompletableFuture<>();
    WebSocket binary = socket(ended, new LinkedBlockingQueue<>());
    binary.sendBinary(ByteBuffer.wrap(new byte[64 << 10]), true);
    ended.get(5, TimeUnit.SECONDS);
  }

  @Test
  void aNewSocketPastTheCapDisplacesTheOldestWithoutTheSecretAndIsRefusedWhenAllShowedIt() throws Exception {
    // time enough to open and prove them all, even on a loaded machine
    start(settings(work).requestTimeout(Duration.ofSeconds(60)));
    List<CompletableFuture<Void>> ended = new ArrayList<>();
    List<WebSocket> open = new ArrayList<>();
    List<BlockingQueue<String>> heard = new ArrayList<>();
    for (int i = 0; i <= SocketEndpoint.MAX_OPEN; i++) {
      ended.add(new CompletableFuture<>());
      heard.add(new LinkedBlockingQueue<>());
      open.add(socket(ended.get(i), heard.get(i)));
    }
    ended.get(0).get(5, TimeUnit.SECONDS);
    for (int i = 1; i <= SocketEndpoint.MAX_OPEN; i++) {
      assertTrue(!ended.get(i).isDone(), "socket " + i + " is open: only the oldest made room");
      prove(open.get(i), heard.get(i));
    }
    CompletionException refused = assertThrows(CompletionException.class,
        () -> HTTP.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + rpc.port() + "/jsonrpc"),
            new WebSocket.Listener() { }).join());
    assertEquals(503, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode(), refused::toString);
    open.forEach(WebSocket::abort);
  }
}
