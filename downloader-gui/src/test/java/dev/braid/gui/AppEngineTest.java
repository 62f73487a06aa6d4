package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.braid.client.remote.EngineLock;
import dev.braid.client.remote.SecretFile;
import dev.braid.core.Braid;
import dev.braid.core.Gid;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The app's engine as {@link BraidApp} opens it: its own with the aria2 RPC for browser
 * extensions (driven by the JDK's HTTP client), or a real {@code braid daemon} process's.
 */
@ExtendWith(ApplicationExtension.class)
class AppEngineTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @TempDir Path dir;
  private TestServer server;
  private Stage stage;
  private AppEngine engine;
  private MainWindow window;
  private Process daemon;

  @Start
  void start(Stage stage) throws Exception {
    this.stage = stage;
    server = TestServer.start();
    stage.show();
  }

  @AfterEach
  void stop() throws Exception {
    if (window != null) {
      WaitForAsyncUtils.asyncFx(window::stop).get();
    }
    if (engine != null) {
      engine.close();
    }
    if (daemon != null) {
      daemon.destroy();
      if (!daemon.waitFor(30, TimeUnit.SECONDS)) {
        daemon.destroyForcibly();
      }
    }
    server.close();
  }

  @Test
  void anExtensionsAddUriWithTheSecretLandsInTheQueueAndCompletes() throws Exception {
    int port = freePort();
    settings(true, port);
    open();
    assertFalse(engine.attached());
    assertEquals(port, engine.rpcPort().orElseThrow());
    // the app holds the engine lock as a daemon would: a daemon on this store refuses
    assertThrows(EngineLock.EngineRunningException.class, () -> EngineLock.acquire(db()));

    Content file = Content.random(2 << 20, 41);
    server.serve("/ext/page.bin", file);
    String url = server.url("/ext/page.bin");
    String secret = Files.readString(SecretFile.fileOf(db())).strip();
    JsonNode answer = call(port, "token:" + secret, "aria2.addUri", List.of(url), Map.of("out", "from-browser.bin"));
    assertTrue(answer.path("result").asText().matches("[0-9a-f]{16}"), answer.toString());

    DownloadRow row = awaitRow(url, r -> r.status() == DownloadState.COMPLETED, 20);
    assertEquals(Gid.parse(answer.path("result").asText()), row.id());
    assertEquals(file.sha256Hex(), Content.sha256Hex(downloads().resolve("from-browser.bin")));
    // the secret is needed: a wrong one is refused with aria2's code 1
    assertEquals(1, call(port, "token:wrong", "aria2.getVersion").path("error").path("code").asInt());
  }

  @Test
  void withTheSettingOffThePortStaysClosed() throws Exception {
    int port = freePort();
    settings(false, port);
    open();
    assertTrue(engine.rpcPort().isEmpty());
    assertThrows(ConnectException.class, () -> new Socket(InetAddress.getByName("127.0.0.1"), port).close());
  }

  @Test
  void anEngineThatDoesNotAnswerIsNotAttachedToTheWindowRunsItsOwn() throws Exception {
    int port = freePort();
    settings(true, port);
    Content file = Content.random(256 << 10, 44);
    server.serve("/beside.bin", file);
    try (EngineLock other = EngineLock.acquire(db())) {
      open();
      assertFalse(engine.attached());
      assertTrue(engine.rpcPort().isEmpty(), "the lock's holder would own the RPC");
      assertTrue(engine.notice().orElseThrow().contains("does not answer"), engine.notice().toString());
      engine.queue().add(new AddRequest(List.of(AddRequest.Entry.of(server.url("/beside.bin"))), downloads()));
      awaitRow(server.url("/beside.bin"), r -> r.status() == DownloadState.COMPLETED, 20);
      assertEquals(file.sha256Hex(), Content.sha256Hex(downloads().resolve("beside.bin")));
    }
  }

  @Test
  void withADaemonOnTheStoreTheAppAttachesAndShowsItsQueue() throws Exception {
    int port = freePort();
    startDaemon(port);
    open();
    assertTrue(engine.attached());
    assertTrue(engine.rpcPort().isEmpty(), "no second RPC server");

    Content first = Content.random(1 << 20, 42);
    server.serve("/d/first.bin", first);
    String firstUrl = server.url("/d/first.bin");
    String secret = Files.readString(SecretFile.fileOf(db())).strip();
    assertTrue(call(port, "token:" + secret, "aria2.addUri", List.of(firstUrl)).has("result"));
    awaitRow(firstUrl, r -> r.status() == DownloadState.COMPLETED, 20);
    assertEquals(first.sha256Hex(), Content.sha256Hex(downloads().resolve("first.bin")));

    // the window's own add goes to the daemon, and so does its remove
    Content second = Content.random(1 << 20, 43);
    server.serve("/d/second.bin", second);
    String secondUrl = server.url("/d/second.bin");
    engine.queue().add(new AddRequest(List.of(AddRequest.Entry.of(secondUrl)), downloads()));
    DownloadRow row = awaitRow(secondUrl, r -> r.status() == DownloadState.COMPLETED, 20);
    assertEquals(second.sha256Hex(), Content.sha256Hex(downloads().resolve("second.bin")));
    engine.queue().remove(List.of(row.id()), false);
    WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> call(port, "token:" + secret, "aria2.tellStopped", 0, 10)
        .path("result").size() == 1);
    WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() -> window.table().getItems().size() == 1).get());
  }

  @Test
  void attachedToADaemonAMetalinkFromTheAddFormGoesToItAsAddMetalink() throws Exception {
    startDaemon(freePort());
    open();
    assertTrue(engine.attached());
    Content c = Content.random(1 << 20, 44);
    server.serve("/m1/c.bin", c).corruptBytes(300_000, 300_001);
    server.serve("/m2/c.bin", c);
    Path meta4 = dir.resolve("c.meta4");
    Files.writeString(meta4, MetalinkAddTest.doc(MetalinkAddTest.file("got/c.bin", c,
        List.of(server.url("/m1/c.bin"), server.url("/m2/c.bin")))));
    engine.queue().add(AddForm.build(meta4.toString(), downloads().toString(), "", ""));
    awaitRow(server.url("/m1/c.bin"), r -> r.status() == DownloadState.COMPLETED, 30);
    assertEquals(c.sha256Hex(), Content.sha256Hex(downloads().resolve("got/c.bin")));
    assertTrue(server.requests().stream().noneMatch(r -> r.path().endsWith(".meta4")), "the document went by RPC");
  }

  @Test
  void attachedToADaemonANewLinkGoesToItAsChangeUriAndThePausedDownloadContinues() throws Exception {
    int port = freePort();
    startDaemon(port);
    open();
    assertTrue(engine.attached());
    Content c = Content.random(16 << 20, 45);
    server.serve("/old/l.bin", c).etag("\"l1\"").rateLimitPerConnection(128 << 10);
    server.serve("/new/l.bin", c).etag("\"l1\"");
    String oldUrl = server.url("/old/l.bin");
    engine.queue().add(new AddRequest(List.of(AddRequest.Entry.of(oldUrl)), downloads()));
    DownloadRow row = awaitRow(oldUrl, r -> r.status() == DownloadState.ACTIVE && r.snapshot().done() > 0, 20);
    engine.queue().pause(List.of(row.id()));
    awaitRow(oldUrl, r -> r.status() == DownloadState.PAUSED, 20);

    engine.queue().changeLink(row.id(), server.url("/new/l.bin"));
    long id = row.id();
    WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() -> window.table().getItems().stream()
        .anyMatch(r -> r.id() == id && r.status() == DownloadState.COMPLETED)).get());
    assertEquals(c.sha256Hex(), Content.sha256Hex(downloads().resolve("l.bin")));
    assertTrue(server.requests().stream().anyMatch(r -> r.path().equals("/new/l.bin")), "the daemon went on from the new link");
  }

  /** A real {@code braid daemon} on the test's store, serving RPC on {@code port} (the app's settings say so). */
  private void startDaemon(int port) throws Exception {
    settings(true, port);
    Path log = dir.resolve("daemon.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    daemon = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.braid.cli.Main", "daemon",
        "--state-db", db().toString(), "-d", downloads().toString(), "--rpc-listen-port", Integer.toString(port))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> {
      if (!daemon.isAlive()) {
        throw new AssertionError("the daemon ended: " + Files.readString(log));
      }
      return Files.readString(log).contains("serving aria2 JSON-RPC");
    });
  }

  private Path db() {
    return dir.resolve("state.db");
  }

  private Path downloads() {
    return dir.resolve("downloads");
  }

  /** Stored before the start, as a person would have set them in the settings dialog. */
  private void settings(boolean rpc, int port) throws Exception {
    try (Braid b = Braid.builder().stateDatabase(db()).runQueue(false).build()) {
      b.saveSetting(GuiSettings.FOLDER, downloads().toString());
      b.saveSetting(GuiSettings.RPC, Boolean.toString(rpc));
      b.saveSetting(GuiSettings.RPC_PORT, Integer.toString(port));
    }
  }

  private void open() throws Exception {
    SnapshotCoalescer coalescer = new SnapshotCoalescer();
    engine = AppEngine.open(db().toString(), coalescer, b -> b.readTimeout(Duration.ofSeconds(2)).connectTimeout(Duration.ofSeconds(2))
        .checkpointInterval(Duration.ofMillis(200)), () -> {});
    WaitForAsyncUtils.asyncFx(() -> {
      window = new MainWindow(engine.queue(), coalescer, engine.queue().background(), p -> {});
      stage.setScene(window.scene());
      window.start();
    }).get();
  }

  private DownloadRow awaitRow(String url, Predicate<DownloadRow> condition, int seconds) throws Exception {
    DownloadRow[] found = new DownloadRow[1];
    try {
      WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() -> {
        for (DownloadRow r : window.table().getItems()) {
          if (r.snapshot().url().equals(url) && condition.test(r)) {
            found[0] = r;
            return true;
          }
        }
        return false;
      }).get());
    } catch (TimeoutException e) {
      String rows = WaitForAsyncUtils.asyncFx(() -> window.table().getItems().stream().map(r -> r.snapshot().toString()).toList()).get().toString();
      throw new AssertionError("no row for " + url + " as expected within " + seconds + " s; rows: " + rows);
    }
    return found[0];
  }

  private static JsonNode call(int port, String token, String method, Object... params) throws IOException, InterruptedException {
    var request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", "t").put("method", method);
    var p = request.putArray("params").add(token);
    for (Object o : params) {
      p.add(JSON.valueToTree(o));
    }
    HttpResponse<String> res = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/jsonrpc"))
        .POST(HttpRequest.BodyPublishers.ofString(request.toString())).header("Content-Type", "application/json").build(),
        HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(res.body());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return s.getLocalPort();
    }
  }
}
