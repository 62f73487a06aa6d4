package dev.braid.gui;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.Braid;
import dev.braid.store.DownloadState;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One scenario in the window's queue model ({@link ClientQueue}, as {@link AppEngine} opens it)
 * over the app's own engine and over a real {@code braid daemon} process: what the app's two
 * queues once did differently (a Metalink URL, the host rules, a folder that does not exist yet,
 * mirrors) must come out the same.
 */
class QueueBothWaysTest {
  /** Which engine the queue reaches. */
  enum Way { OWN_ENGINE, DAEMON }

  @TempDir Path dir;
  private TestServer server;
  private Process daemon;
  private AppEngine engine;
  private final SnapshotCoalescer out = new SnapshotCoalescer();
  private final Map<Long, DownloadSnapshot> rows = new ConcurrentHashMap<>();
  private final List<String> problems = new CopyOnWriteArrayList<>();

  @BeforeEach
  void serve() throws Exception {
    server = TestServer.start();
  }

  @AfterEach
  void stop() throws Exception {
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

  @ParameterizedTest
  @EnumSource(Way.class)
  void aMetalinkUrlHostRulesANewFolderAndMirrorsComeOutTheSame(Way way) throws Exception {
    Content one = Content.random(600 << 10, 51);
    Content two = Content.random(400 << 10, 52);
    server.serve("/a/one.bin", one);
    server.serve("/b/one.bin", one);
    server.serve("/m1/two.bin", two);
    server.serve("/m2/two.bin", two);
    server.serve("/set.meta4", Content.of(MetalinkAddTest.doc(MetalinkAddTest.file("two.bin", two,
        List.of(server.url("/m1/two.bin"), server.url("/m2/two.bin")))).getBytes(StandardCharsets.UTF_8)));
    Path rulesFile = dir.resolve("rules.toml");
    Files.writeString(rulesFile, """
        [hosts."127.0.0.1"]
        headers = { X-Rule = "both-ways" }
        """);
    open(way, rulesFile);
    assertEquals(way == Way.DAEMON, engine.attached(), () -> engine.notice().toString());

    // a folder that does not exist yet, as a person may type it in the add dialog
    Path folder = downloads().resolve("new/deeper");
    assertFalse(Files.exists(folder));
    String oneUrl = server.url("/a/one.bin");
    engine.queue().add(new AddRequest(List.of(new AddRequest.Entry(oneUrl, List.of(server.url("/b/one.bin")), null, null)), folder));
    engine.queue().add(AddForm.build(server.url("/set.meta4"), folder.toString(), "", ""));

    String twoUrl = server.url("/m1/two.bin");
    await("both downloads complete").atMost(Duration.ofSeconds(30)).until(() -> complete(oneUrl) && complete(twoUrl));
    assertEquals(List.of(), problems);
    assertEquals(one.sha256Hex(), Content.sha256Hex(folder.resolve("one.bin")));
    assertEquals(two.sha256Hex(), Content.sha256Hex(folder.resolve("two.bin")));
    assertEquals(List.of(server.url("/b/one.bin")), row(oneUrl).mirrors(), "the mirror is recorded with the download");
    assertEquals(List.of(server.url("/m2/two.bin")), row(twoUrl).mirrors(), "the Metalink's other URL is a mirror");
    assertEquals(2, rows.size(), "the Metalink itself is no download");
    // the engine's side fetched the document, and every request of a file carried the host's rule
    assertTrue(server.requests().stream().anyMatch(r -> r.path().equals("/set.meta4")), "the Metalink URL was fetched");
    List<RequestRecord> files = server.requests().stream().filter(r -> r.path().endsWith(".bin")).toList();
    assertFalse(files.isEmpty());
    assertTrue(files.stream().allMatch(r -> "both-ways".equals(r.header("X-Rule"))), () -> "a request without the rule's header: " + files);
  }

  private boolean complete(String url) {
    SnapshotCoalescer.Batch batch = out.drain();
    batch.updates().forEach(s -> rows.put(s.id(), s));
    batch.removed().forEach(rows::remove);
    DownloadSnapshot s = row(url);
    if (s != null && s.status() == DownloadState.FAILED) {
      throw new AssertionError(url + " failed: " + s.error());
    }
    return s != null && s.status() == DownloadState.COMPLETED;
  }

  private DownloadSnapshot row(String url) {
    return rows.values().stream().filter(s -> s.url().equals(url)).findFirst().orElse(null);
  }

  /** The app's engine as it starts: its own (the RPC setting off), or attached to a daemon started first. */
  private void open(Way way, Path rulesFile) throws Exception {
    try (Braid b = Braid.builder().stateDatabase(db()).runQueue(false).build()) {
      b.saveSetting(GuiSettings.FOLDER, downloads().toString());
      b.saveSetting(GuiSettings.RPC, "false");
    }
    if (way == Way.DAEMON) {
      startDaemon(rulesFile);
    }
    engine = AppEngine.open(db().toString(), out, b -> b, () -> {}, AppRules.load(rulesFile));
    engine.queue().onProblem((title, text) -> problems.add(title + ": " + text));
  }

  /** A real {@code braid daemon} on the test's store with the same rules file. */
  private void startDaemon(Path rulesFile) throws Exception {
    Files.createDirectories(downloads());
    Path log = dir.resolve("daemon.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    daemon = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.braid.cli.Main", "daemon",
        "--state-db", db().toString(), "-d", downloads().toString(), "--rpc-listen-port", Integer.toString(freePort()),
        "--rules", rulesFile.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    await("the daemon serves").atMost(Duration.ofSeconds(30)).until(() -> {
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

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return s.getLocalPort();
    }
  }
}
