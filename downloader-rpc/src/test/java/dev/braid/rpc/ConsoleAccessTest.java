package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.core.Braid;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web console's files and what guards them and the RPC from web pages: a real server, the
 * JDK's HTTP and WebSocket clients, and raw requests for the Host headers no client library lets
 * a test forge.
 */
class ConsoleAccessTest {
  private static final String CSP = "default-src 'self'; frame-ancestors 'none'";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path work;
  private Braid braid;
  private RpcServer rpc;
  private RpcCalls calls;

  @BeforeEach
  void start() throws Exception {
    braid = Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work).build();
    rpc = RpcServer.start(braid, RpcSettings.builder(work, "k").port(0).unauthorizedDelay(Duration.ZERO).build(), () -> { });
    calls = new RpcCalls(rpc::port, "k");
  }

  @AfterEach
  void stop() {
    rpc.close();
    braid.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rpc.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theConsoleIsServedFromTheJarWithItsHeaders() throws Exception {
    HttpResponse<String> page = get("/");
    assertEquals(200, page.statusCode());
    assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), page.headers()::toString);
    assertTrue(page.body().contains("<script type=\"module\" src=\"app.js\">"), page.body());
    // no inline script or style: the policy would block them
    assertFalse(page.body().contains("<style") || page.body().contains("style=") || page.body().contains("<script>"));
    for (String path : new String[] {"/", "/app.js", "/console.css", "/nothing-here", "/jsonrpc"}) {
      HttpResponse<String> r = get(path);
      assertEquals(CSP, r.headers().firstValue("Content-Security-Policy").orElse(null), path);
      assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(null), path);
    }
    assertEquals("application/javascript", get("/app.js").headers().firstValue("Content-Type").orElse(null));
    assertEquals("text/css", get("/console.css").headers().firstValue("Content-Type").orElse(null));
    assertEquals(404, get("/nothing-here").statusCode());
    assertEquals(404, get("/../pom.xml").statusCode());
  }

  @Test
  void aNameOtherThanLoopbackGets421() throws Exception {
    String body = calls.request("aria2.getVersion").toString();
    for (String host : new String[] {"evil.example", "127.0.0.1.evil.example", "localhost.evil.example", "192.168.1.10",
        "[fe80::1]"}) {
      for (String head : new String[] {"GET / HTTP/1.1", "POST /jsonrpc HTTP/1.1"}) {
        String answer = raw(head, host + ":" + rpc.port(), head.startsWith("POST") ? body : null, Map.of());
        assertTrue(answer.startsWith("HTTP/1.1 421"), () -> host + " " + head + ": " + answer);
        assertTrue(answer.contains("DNS-rebound name is refused"), answer);
        assertFalse(answer.contains("\"result\""), answer);
      }
    }
    for (String host : new String[] {"localhost", "127.0.0.1", "127.0.0.2", "[::1]", "LOCALHOST"}) {
      assertTrue(raw("GET / HTTP/1.1", host + ":" + rpc.port(), null, Map.of()).startsWith("HTTP/1.1 200"), host);
      String answer = raw("POST /jsonrpc HTTP/1.1", host + ":" + rpc.port(), body, Map.of());
      assertTrue(answer.startsWith("HTTP/1.1 200") && answer.contains("\"version\""), () -> host + ": " + answer);
    }
  }

  @Test
  void listeningOnAllInterfacesAddsAddressesAndTheMachinesNameNotOtherNames() {
    HostCheck all = new HostCheck(ex -> { }, true, Set.of("nas", "nas.local"));
    for (String ok : new String[] {"192.168.1.10:6800", "[fe80::1]:6800", "NAS.local:6800", "nas", "localhost:6800"}) {
      assertTrue(all.allowed(ok), ok);
    }
    for (String refused : new String[] {"evil.example:6800", "nas.evil.example", "192.168.1.10.nip.io", "[::1",
        "999.1.1.1", "[localhost]", "[abc]"}) {
      assertFalse(all.allowed(refused), refused);
    }
    HostCheck loopback = new HostCheck(ex -> { }, false, Set.of());
    assertFalse(loopback.allowed("nas.local"));
    assertFalse(loopback.allowed("10.0.0.1"));
  }

  @Test
  void thePagesOwnOriginMayOpenTheSocketAndAnotherMayNot() throws Exception {
    String own = "http://127.0.0.1:" + rpc.port();
    try (SocketClient socket = SocketClient.open(rpc.port(), own)) {
      JsonNode a = socket.call(calls.request("aria2.getVersion").toString());
      assertTrue(a.get("result").has("version"), a::toString);
    }
    // a page at localhost is another origin than one at 127.0.0.1: each is its own only as itself
    for (String other : new String[] {"http://localhost:" + rpc.port(), "http://evil.example", "https://127.0.0.1:" + rpc.port()}) {
      ExecutionException refused = assertThrows(ExecutionException.class, () -> SocketClient.open(rpc.port(), other));
      assertEquals(403, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode(), other);
    }
    // CORS: the page's own calls need none; a foreign page gets no grant to read an answer
    String body = calls.request("aria2.getVersion").toString();
    String foreign = raw("POST /jsonrpc HTTP/1.1", "127.0.0.1:" + rpc.port(), body, Map.of("Origin", "http://evil.example"));
    assertFalse(foreign.toLowerCase(java.util.Locale.ROOT).contains("access-control-allow-origin"), foreign);
    String ownAnswer = raw("POST /jsonrpc HTTP/1.1", "127.0.0.1:" + rpc.port(), body, Map.of("Origin", own));
    assertTrue(ownAnswer.startsWith("HTTP/1.1 200") && ownAnswer.contains("\"version\""), ownAnswer);
  }

  /** One HTTP/1.1 request written by hand (any Host), the whole answer read until the server closes. */
  private String raw(String requestLine, String host, String body, Map<String, String> headers) throws IOException {
    try (Socket s = new Socket("127.0.0.1", rpc.port())) {
      s.setSoTimeout(10_000);
      StringBuilder req = new StringBuilder(requestLine).append("\r\nHost: ").append(host).append("\r\nConnection: close\r\n");
      headers.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
      byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      if (body != null) {
        req.append("Content-Type: application/json\r\nContent-Length: ").append(bytes.length).append("\r\n");
      }
      req.append("\r\n");
      OutputStream out = s.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
