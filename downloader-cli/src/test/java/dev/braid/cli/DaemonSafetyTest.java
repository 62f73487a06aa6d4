package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid daemon} against hostile and careless calls, and its process contract: one daemon
 * per store (exit 9), SIGTERM exits 0, loopback only by default, CORS only for allowed origins,
 * a wrong secret answered slowly with code 1, bounded bodies and messages, malformed JSON.
 */
class DaemonSafetyTest {
  /** One daemon for the tests that do not end it: each start is a JVM's. */
  @TempDir static Path work;
  private static Path downloads;
  private static TestServer server;
  private static RpcDaemon daemon;

  @BeforeAll
  static void start() throws Exception {
    downloads = Files.createDirectories(work.resolve("downloads"));
    server = TestServer.start();
    daemon = RpcDaemon.start(work, work.resolve("state").resolve("state.db"), downloads, "s3cret",
        "--rpc-allow-origin", "http://good.example");
  }

  @AfterAll
  static void stop() throws IOException {
    daemon.close();
    server.close();
  }

  @Test
  void wrongOrMissingSecretIsCodeOneAnsweredSlowly() throws Exception {
    long t0 = System.nanoTime();
    RpcDaemon.Answer a = daemon.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"aria2.getVersion\",\"params\":[\"token:nope\"]}");
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertEquals(1, a.body().get("error").get("code").asInt(), a.body()::toString);
    assertEquals("Unauthorized", a.body().get("error").get("message").asText());
    assertTrue(seconds >= 0.9, "a wrong secret must be answered after about a second, not " + seconds);
    JsonNode missing = daemon.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"aria2.tellActive\",\"params\":[]}").body();
    assertEquals("Unauthorized", missing.get("error").get("message").asText());
    // the open methods need none, as in aria2
    JsonNode methods = daemon.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"system.listMethods\"}").body();
    assertTrue(methods.get("result").toString().contains("aria2.addUri"), methods::toString);
  }

  @Test
  void aShortSecretIsWarnedOf() throws Exception {
    assertTrue(daemon.process.stderrSoFar().contains("WARNING: the RPC secret given by --rpc-secret has 6 characters: one"
        + " under 16 can be guessed"), daemon.process.stderrSoFar());
  }

  @Test
  void malformedJsonAndOversizedBodiesLeaveTheDaemonUp() throws Exception {
    RpcDaemon.Answer bad = daemon.post("{\"jsonrpc\":\"2.0\",\"method\":");
    assertEquals(-32700, bad.body().get("error").get("code").asInt());
    assertTrue(bad.body().get("id").isNull());
    RpcDaemon.Answer notRpc = daemon.post("[1, \"x\"]");
    assertEquals(-32600, notRpc.body().get(0).get("error").get("code").asInt(), notRpc.body()::toString);
    RpcDaemon.Answer unknown = daemon.post(daemon.request("aria2.noSuchThing").toString());
    assertEquals(1, unknown.body().get("error").get("code").asInt());
    assertEquals("No such method: aria2.noSuchThing", unknown.body().get("error").get("message").asText());

    String huge = "[\"" + "x".repeat(2 << 20) + "\"]";
    // announced first, as curl does for a large body: refused on its declared length, before it is sent
    RpcDaemon.Answer tooBig = daemon.post(huge, true);
    assertEquals(413, tooBig.status(), "a body over 1 MiB is refused");

    // a WebSocket message over 1 MiB ends that connection only
    CompletableFuture<Integer> closed = new CompletableFuture<>();
    WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
        .buildAsync(URI.create("ws://127.0.0.1:" + daemon.port + "/jsonrpc"), new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onClose(WebSocket s, int code, String reason) {
            closed.complete(code);
            return null;
          }

          @Override
          public void onError(WebSocket s, Throwable error) {
            closed.complete(-1);
          }
        }).get(10, TimeUnit.SECONDS);
    ws.sendText(huge, true);
    closed.get(20, TimeUnit.SECONDS);

    assertTrue(daemon.process.isAlive());
    assertEquals("0", daemon.call("aria2.getGlobalStat").get("numActive").asText(), "the daemon still answers");
  }

  @Test
  void getWithBase64ParamsAndJsonp() throws Exception {
    String params = Base64.getEncoder().encodeToString("[\"token:s3cret\"]".getBytes());
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(daemon.uri() + "?method=aria2.getGlobalStat&id=g1&params=" + java.net.URLEncoder.encode(params, "UTF-8")
            + "&jsoncallback=cb")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    assertTrue(r.body().startsWith("cb({") && r.body().endsWith(")"), r.body());
    JsonNode answer = RpcDaemon.JSON.readTree(r.body().substring(3, r.body().length() - 1));
    assertEquals("g1", answer.get("id").asText());
    assertEquals("0", answer.get("result").get("numWaiting").asText());
  }

  @Test
  void outAndDirCannotLeaveTheAllowedFolders() throws Exception {
    server.serve("/f.bin", Content.random(4096, 3));
    String url = server.url("/f.bin");
    Path outside = Files.createDirectories(work.resolve("outside"));
    Files.deleteIfExists(downloads.resolve("link"));
    for (Map<String, String> options : List.of(Map.of("out", "../escaped.bin"), Map.of("out", "a/../../escaped.bin"),
        Map.of("out", outside.resolve("escaped.bin").toString()), Map.of("dir", outside.toString()),
        Map.of("dir", "../outside"))) {
      JsonNode e = daemon.error("aria2.addUri", List.of(url), options);
      assertEquals(1, e.get("code").asInt(), e::toString);
    }
    // a link inside the download folder that leads out is no way out either
    Files.createSymbolicLink(downloads.resolve("link"), outside);
    assertEquals(1, daemon.error("aria2.addUri", List.of(url), Map.of("dir", downloads.resolve("link").toString()))
        .get("code").asInt());
    assertEquals(1, daemon.error("aria2.addUri", List.of(url), Map.of("out", "link/escaped.bin")).get("code").asInt());
    // allowed: a subfolder, and a plain name
    String gid = daemon.call("aria2.addUri", List.of(url), Map.of("dir", downloads.resolve("sub").toString(), "out", "ok.bin"))
        .asText();
    daemon.awaitStatus(gid, s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(20));
    assertTrue(Files.exists(downloads.resolve("sub").resolve("ok.bin")));
    try (var all = Files.walk(work)) {
      assertTrue(all.noneMatch(p -> p.getFileName().toString().startsWith("escaped")), "nothing was written outside");
    }
  }

  @Test
  void headersGoOnlyToTheUrlsOrigin() throws Exception {
    try (TestServer other = TestServer.start()) {
      other.serve("/moved.bin", Content.random(8192, 4));
      server.redirect("/start.bin", other.url("/moved.bin"), 302);
      String gid = daemon.call("aria2.addUri", List.of(server.url("/start.bin")),
          Map.of("header", List.of("X-Api-Key: secret-key", "Accept-Encoding: gzip"), "out", "moved.bin")).asText();
      daemon.awaitStatus(gid, s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(20));
      Optional<RequestRecord> first = server.requests().stream().filter(r -> r.path().equals("/start.bin")).findFirst();
      assertTrue(first.isPresent());
      assertEquals("secret-key", first.get().header("X-Api-Key"), "the URL's own origin gets the header");
      assertFalse(other.requests().isEmpty());
      for (RequestRecord r : other.requests()) {
        assertNull(r.header("X-Api-Key"), "another origin must not see the header");
      }
      for (RequestRecord r : server.requests()) {
        assertFalse("gzip".equals(r.header("Accept-Encoding")), "a client's Accept-Encoding is not passed on");
      }
    }
  }

  @Test
  void corsOnlyForTheAllowedOrigin() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    String body = daemon.request("aria2.getGlobalStat").toString();
    for (String origin : List.of("http://good.example", "http://evil.example")) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(daemon.uri()).header("Origin", origin)
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> pre = http.send(HttpRequest.newBuilder(daemon.uri()).header("Origin", origin)
          .header("Access-Control-Request-Method", "POST").method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString());
      Optional<String> granted = r.headers().firstValue("Access-Control-Allow-Origin");
      Optional<String> preGranted = pre.headers().firstValue("Access-Control-Allow-Origin");
      if (origin.contains("good")) {
        assertEquals(Optional.of(origin), granted);
        assertEquals(Optional.of(origin), preGranted);
      } else {
        assertEquals(Optional.empty(), granted, "no CORS grant to a foreign origin");
        assertEquals(Optional.empty(), preGranted, "no preflight grant to a foreign origin");
      }
    }
  }

  @Test
  void listensOnLoopbackOnly() throws Exception {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("::1", daemon.port), 2000);
    }
    Optional<InetAddress> lan = NetworkInterface.networkInterfaces().filter(this::up)
        .flatMap(NetworkInterface::inetAddresses).filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress()).findFirst();
    org.junit.jupiter.api.Assumptions.assumeTrue(lan.isPresent(), "this machine has no address but loopback");
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(lan.get(), daemon.port), 2000);
      throw new AssertionError("the daemon answered on " + lan.get() + " without --rpc-listen-all");
    } catch (IOException refused) {
      // what loopback-only means
    }
  }

  private boolean up(NetworkInterface n) {
    try {
      return n.isUp();
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void aSecondDaemonOnTheSameStoreRefusesAndSigtermExitsZero(@TempDir Path own) throws Exception {
    Path db = own.resolve("state.db");
    CliProcess.Result second;
    try (RpcDaemon first = RpcDaemon.start(own, db, downloads, "s3cret")) {
      second = CliProcess.run(own, "daemon", "--state-db", db.toString(), "-d", downloads.toString(),
        "--rpc-listen-port", "0", "--rpc-secret", "x");
      second.assertExit(ExitCode.ENGINE_RUNNING).assertOneErrorLine("another braid daemon", "pid " + first.process.pid());
      first.process.terminate().assertExit(ExitCode.OK).assertNoStackTrace();
    }

    // without --rpc-secret: a secret is made, readable by its user only, and kept for the next run
    Path secretFile = db.resolveSibling("state.db.rpc-secret");
    String made;
    try (RpcDaemon made0 = RpcDaemon.start(own, db, downloads, null)) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secretFile)));
      made = Files.readString(secretFile).strip();
      assertTrue(made.length() >= 32, made);
      assertTrue(made0.process.stderrSoFar().contains(secretFile.toString()), "the daemon says where its secret is");
      made0.process.terminate().assertExit(ExitCode.OK);
    }
    try (RpcDaemon again = RpcDaemon.start(own, db, downloads, made)) {
      assertEquals("0", again.call("aria2.getGlobalStat").get("numActive").asText(), "the kept secret still works");
    }
  }
}
