package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.client.remote.DaemonLink;
import dev.braid.testserver.ConnectProxy;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI as a client of a real {@code braid daemon} process on the same state database: the
 * commands' work happens in the daemon (its RPC shows it), their output and exit codes are an
 * in-process run's, and the client JVM loads neither Apache HttpClient nor SQLite.
 */
class DaemonClientTest {
  private static final Pattern DETACHED = Pattern.compile("(?m)^(\\d+) ([0-9a-f]{16}) (\\S+)$");

  @TempDir static Path work;
  private static Path db;
  private static Path downloads;
  private static TestServer server;
  private static RpcDaemon daemon;
  private static final Content ONE = Content.random(1 << 20, 5);

  @BeforeAll
  static void startDaemon() throws Exception {
    db = work.resolve("state.db");
    downloads = Files.createDirectories(work.resolve("downloads"));
    server = TestServer.start();
    server.serve("/one.bin", ONE).etag("\"one\"");
    server.serve("/two.bin", Content.random(200_000, 6));
    server.serve("/slow.bin", Content.random(8 << 20, 7)).rateLimitPerConnection(256 << 10);
    // slow enough (tens of seconds even on every connection the engine opens) that Ctrl-C lands mid-download
    server.serve("/held.bin", Content.random(8 << 20, 8)).rateLimitPerConnection(16 << 10);
    // the secret a daemon made is in this file; written first here, so that the test's own calls know it too
    Files.setPosixFilePermissions(Files.writeString(dev.braid.client.remote.SecretFile.fileOf(db), "client-test-secret\n"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    daemon = RpcDaemon.start(work, db, downloads, "client-test-secret");
  }

  @AfterAll
  static void stop() throws Exception {
    if (daemon != null) {
      daemon.process.terminate().assertExit(ExitCode.OK);
      assertFalse(Files.exists(DaemonLink.portFileOf(db)), "the daemon withdraws its port file when it stops");
    }
    if (server != null) {
      server.close();
    }
  }

  private static CliProcess.Result braid(List<String> jvm, String... args) throws Exception {
    String[] all = new String[args.length + 1];
    all[0] = args[0];
    all[1] = "--state-db=" + db;
    System.arraycopy(args, 1, all, 2, args.length - 1);
    return CliProcess.run(work, jvm, all);
  }

  private static CliProcess.Result braid(String... args) throws Exception {
    return braid(List.of(), args);
  }

  @Test
  void getRunsInTheDaemonAndLoadsNeitherHttpClientNorSqlite() throws Exception {
    Path classes = work.resolve("classes.log");
    CliProcess.Result r = braid(List.of("-Xlog:class+load=info:file=" + classes), "get", "-d", downloads.toString(),
        server.url("/one.bin")).assertExit(ExitCode.OK).assertNoStackTrace();
    assertTrue(r.stderr().contains("saved " + downloads.resolve("one.bin")), r::describe);
    // as in process: a download done within the first period shows no progress line, only its end
    assertEquals(1, r.stderr().lines().count(), r::describe);
    assertEquals(ONE.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("one.bin")));
    String loaded = Files.readString(classes);
    assertTrue(loaded.contains("dev.braid.cli.RelayClient "), "the log is the client's, which relayed its command line");
    assertFalse(loaded.contains("org.apache.hc"), "the client path loaded Apache HttpClient");
    assertFalse(loaded.contains("org.sqlite"), "the client path loaded SQLite");
    boolean stopped = false;
    for (JsonNode s : daemon.call("aria2.tellStopped", 0, 100)) {
      stopped |= s.get("files").get(0).get("path").asText().equals(downloads.resolve("one.bin").toString())
          && s.get("status").asText().equals("complete");
    }
    assertTrue(stopped, "the daemon's tellStopped shows the download complete");
  }

  @Test
  void getsProxyGoesToTheDaemonAsThatDownloadsOwnAndABadOneIsRefused() throws Exception {
    server.serve("/proxied.bin", Content.random(300_000, 8)).etag("\"p\"");
    try (ConnectProxy proxy = ConnectProxy.start()) {
      Path file = downloads.resolve("proxied.bin");
      braid("get", "--proxy", proxy.url(), "-o", file.toString(), server.url("/proxied.bin"))
          .assertExit(ExitCode.OK).assertNoStackTrace();
      assertEquals(300_000, Files.size(file));
      long served = server.requests().stream().filter(r -> r.path().equals("/proxied.bin")).count();
      long proxied = proxy.heads().stream().filter(h -> h.startsWith("GET " + server.url("/proxied.bin") + " ")).count();
      assertTrue(served > 0);
      assertEquals(served, proxied, "every request of it went through get's --proxy: " + proxy.heads());
      for (JsonNode s : daemon.call("aria2.tellStopped", 0, 1000)) {
        if (s.get("files").get(0).get("path").asText().equals(file.toString())) {
          assertEquals(proxy.url(), daemon.call("aria2.getOption", s.get("gid").asText()).get("all-proxy").asText());
        }
      }
    }
    CliProcess.Result bad = braid("get", "--proxy", "ftp://127.0.0.1:21", "-d", downloads.toString(), server.url("/two.bin"))
        .assertExit(ExitCode.USAGE);
    assertTrue(bad.stderr().contains("unsupported proxy scheme ftp"), bad::describe);
    CliProcess.Result both = braid("get", "--proxy", "http://127.0.0.1:9", "--no-proxy", "127.0.0.1", "-d",
        downloads.toString(), server.url("/two.bin")).assertExit(ExitCode.USAGE);
    assertTrue(both.stderr().contains("--no-proxy cannot go with it"), both::describe);
  }

  @Test
  void aGetOfAServerThatIsDownEndsAsInProcessNotAfterTheDaemonsHourOfWaiting() throws Exception {
    // the daemon waits out outages for its own downloads; a get in the foreground ends with exit 3
    // after its --retries, as without a daemon, and says how to wait it out
    CliProcess.Result r = braid("get", "--retries", "0", "-d", downloads.toString(), "http://127.0.0.1:9/down.bin")
        .assertExit(ExitCode.NETWORK);
    assertTrue(r.stderr().contains("--retry-for"), r::describe);
  }

  @Test
  void aListWithA404ExitsAsInProcess() throws Exception {
    Path list = Files.writeString(work.resolve("list.txt"), server.url("/two.bin") + "\n" + server.url("/missing.bin") + "\n");
    CliProcess.Result r = braid("get", "-d", downloads.toString(), "-i", list.toString()).assertExit(ExitCode.HTTP_STATUS);
    assertTrue(r.stderr().contains("1 of 2 downloads completed, 1 failed"), r::describe);
    assertTrue(r.stderr().contains("failed " + server.url("/missing.bin")), r::describe);
    assertEquals(200_000, Files.size(downloads.resolve("two.bin")));
  }

  @Test
  void aChecksumMismatchInTheDaemonExitsAsInProcess() throws Exception {
    // its own URL: a later get of the same URL would continue this failed entry
    server.serve("/sum.bin", Content.random(100_000, 9));
    Path file = downloads.resolve("sum.bin");
    String wrong = "sha-256=" + "0".repeat(64);
    CliProcess.Result r = braid("get", "--checksum", wrong, "-o", file.toString(), server.url("/sum.bin"))
        .assertExit(ExitCode.INTEGRITY);
    assertTrue(r.stderr().contains("checksum mismatch"), r::describe);
    String code = null;
    for (JsonNode s : daemon.call("aria2.tellStopped", 0, 1000)) {
      if (s.get("files").get(0).get("path").asText().equals(file.toString())) {
        code = s.get("errorCode").asText();
      }
    }
    assertEquals("32", code, "aria2's checksum code in the daemon's tellStopped");
  }

  @Test
  void aListOfSmallFilesTakesOneRequestEachOnConnectionsTheDaemonKeeps() throws Exception {
    int files = 40;
    try (TestServer small = TestServer.start()) {
      StringBuilder list = new StringBuilder();
      Map<String, Content> served = new java.util.HashMap<>();
      for (int i = 0; i < files; i++) {
        Content c = Content.random(20_000, 100 + i);
        small.serve("/s" + i + ".bin", c).etag("\"s" + i + "\"");
        served.put("s" + i + ".bin", c);
        list.append(small.url("/s" + i + ".bin")).append('\n');
      }
      Path out = Files.createDirectories(downloads.resolve("small"));
      Path listFile = Files.writeString(work.resolve("small-list.txt"), list);
      CliProcess.Result r = braid("get", "-d", out.toString(), "-i", listFile.toString()).assertExit(ExitCode.OK);
      assertTrue(r.stderr().contains(files + " of " + files + " downloads completed"), r::describe);
      for (Map.Entry<String, Content> e : served.entrySet()) {
        assertEquals(e.getValue().sha256Hex(), CliTestSupport.sha256Hex(out.resolve(e.getKey())), e.getKey());
      }
      // the probe's GET serves each file whole, and the daemon's downloads (5 at once by
      // default) take their connections from one pool kept across downloads
      assertEquals(files, small.requests().size(), "one request per file");
      assertTrue(small.connectionsAccepted() <= 5, "connections: " + small.connectionsAccepted());
    }
  }

  @Test
  void aCompletedFileAskedForWithAChecksumItLacksExitsAsAMismatchAndIsKept() throws Exception {
    Path file = downloads.resolve("checked.bin");
    braid("get", "-o", file.toString(), server.url("/two.bin")).assertExit(ExitCode.OK);
    byte[] before = Files.readAllBytes(file);
    String wrong = "sha-256=" + "0".repeat(64);
    CliProcess.Result r = braid("get", "--checksum", wrong, "-o", file.toString(), server.url("/two.bin"))
        .assertExit(ExitCode.INTEGRITY).assertNoStackTrace();
    assertTrue(r.stderr().contains("does not have the sha-256 checksum asked for"), r::describe);
    assertArrayEquals(before, Files.readAllBytes(file), "the completed file was not kept as it was");
    String right = "sha-256=" + CliTestSupport.sha256Hex(file);
    CliProcess.Result again = braid("get", "--checksum", right, "-o", file.toString(), server.url("/two.bin"))
        .assertExit(ExitCode.OK);
    assertTrue(again.stderr().contains("already complete: " + file), again::describe);
  }

  @Test
  void overwriteReachesTheDaemonAndReplacesTheFileThere() throws Exception {
    Path file = downloads.resolve("over.bin");
    Files.writeString(file, "an older file of the same name");
    braid("get", "-o", file.toString(), server.url("/one.bin")).assertExit(ExitCode.LOCAL_IO)
        .assertStderrContains("already exists");
    CliProcess.Result r = braid("get", "-o", file.toString(), "--overwrite", server.url("/one.bin"))
        .assertExit(ExitCode.OK).assertNoStackTrace();
    assertTrue(r.stderr().contains("saved " + file), r::describe);
    assertEquals(ONE.sha256Hex(), CliTestSupport.sha256Hex(file));
    // complete in the daemon's queue: without --overwrite it is answered as it is, with it fetched again
    braid("get", "-o", file.toString(), server.url("/one.bin")).assertExit(ExitCode.OK)
        .assertStderrContains("already complete: " + file);
    CliProcess.Result again = braid("get", "-o", file.toString(), "--overwrite", server.url("/one.bin"))
        .assertExit(ExitCode.OK);
    assertTrue(again.stderr().contains("saved " + file), again::describe);
  }

  @Test
  void aGetIntoAFolderTheDaemonMayNotWriteRunsInThisProcessAsWithoutADaemon() throws Exception {
    Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
    Path classes = work.resolve("classes-elsewhere.log");
    CliProcess.Result r = braid(List.of("-Xlog:class+load=info:file=" + classes), "get", "-d", elsewhere.toString(),
        server.url("/two.bin")).assertExit(ExitCode.OK).assertNoStackTrace();
    assertTrue(r.stderr().contains("the daemon of this state database may not write to " + elsewhere
        + " (it writes under " + downloads + "): downloading in this process"), r::describe);
    assertEquals(200_000, Files.size(elsewhere.resolve("two.bin")));
    assertTrue(Files.readString(classes).contains("org.apache.hc"), "it ran the engine in this process");
    // detached, it is the daemon's to run: refused as the daemon refuses a folder outside its own
    CliProcess.Result detached = braid("get", "--detach", "-d", elsewhere.toString(), server.url("/one.bin"))
        .assertExit(ExitCode.USAGE);
    assertTrue(detached.stderr().contains("outside the folders this daemon may write to"), detached::describe);
  }

  @Test
  void whatAGetPrintedBeforeItWentBackToItsOwnProcessIsPrintedOnce() throws Exception {
    // the daemon reads the Metalink and says what it ignores, then finds the folder is not its own
    Path elsewhere = Files.createDirectories(work.resolve("elsewhere-metalink"));
    Path meta = Files.writeString(elsewhere.resolve("n.meta4"), MetalinkDocs.doc("  <file name=\"n.bin\">"
        + "<url>ftp://ftp.example/n.bin</url><url>" + server.url("/two.bin") + "</url></file>\n"));
    CliProcess.Result r = braid("get", "-d", elsewhere.toString(), meta.toString()).assertExit(ExitCode.OK)
        .assertNoStackTrace();
    assertTrue(r.stderr().contains("downloading in this process"), r::describe);
    assertEquals(1, r.stderr().split("ftp URL ignored", -1).length - 1, r::describe);
    assertEquals(200_000, Files.size(elsewhere.resolve("n.bin")));
  }

  @Test
  void listAndStatusShowTheDaemonsQueue() throws Exception {
    String gid = daemon.call("aria2.addUri", List.of(server.url("/slow.bin")), Map.of("out", "listed.bin", "pause", "true"))
        .asText();
    long id = Long.parseLong(gid, 16);
    CliProcess.Result list = braid("list").assertExit(ExitCode.OK);
    assertTrue(list.stdout().lines().anyMatch(l -> l.matches("\\s*" + id + "\\s+paused\\s+.*listed\\.bin")), list::describe);
    CliProcess.Result status = braid("status", Long.toString(id), "--json").assertExit(ExitCode.OK);
    JsonNode s = RpcDaemon.JSON.readTree(status.stdout());
    assertEquals("paused", s.get("state").asText());
    assertEquals(downloads.resolve("listed.bin").toString(), s.get("file").asText());
    assertEquals(daemon.call("aria2.tellStatus", gid).get("files").get(0).get("path").asText(), s.get("file").asText());
    braid("status", "999999").assertExit(ExitCode.USAGE);
  }

  @Test
  void pauseResumeAndRemoveActInTheDaemon() throws Exception {
    String gid = daemon.call("aria2.addUri", List.of(server.url("/slow.bin")), Map.of("out", "controlled.bin")).asText();
    String id = Long.toString(Long.parseLong(gid, 16));
    daemon.awaitStatus(gid, s -> s.get("status").asText().equals("active"), Duration.ofSeconds(20));
    braid("pause", id).assertExit(ExitCode.OK);
    daemon.awaitStatus(gid, s -> s.get("status").asText().equals("paused"), Duration.ofSeconds(20));
    try (CliProcess resume = CliProcess.start(work, "resume", "--state-db", db.toString(), id)) {
      daemon.awaitStatus(gid, s -> s.get("status").asText().equals("active"), Duration.ofSeconds(20));
      braid("remove", id).assertExit(ExitCode.OK);
      // the client following it hears the removal and exits as an in-process run would
      resume.await(Duration.ofSeconds(30)).assertExit(ExitCode.REMOVED);
    }
    assertEquals("removed", daemon.call("aria2.tellStatus", gid).get("status").asText());
  }

  @Test
  void refreshGivesTheDaemonsPausedDownloadItsNewUrl() throws Exception {
    Content content = Content.random(300_000, 12);
    server.serve("/renewed.bin", content).etag("\"r\"");
    String gid = daemon.call("aria2.addUri", List.of(server.url("/expired.bin")), Map.of("out", "renewed.bin", "pause", "true"))
        .asText();
    String id = Long.toString(Long.parseLong(gid, 16));
    // one path with resume: the new URL goes through the port to the daemon, which runs it
    braid("refresh", id, server.url("/renewed.bin"), "-q").assertExit(ExitCode.OK).assertNoStackTrace();
    assertEquals(content.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("renewed.bin")));
    assertEquals("complete", daemon.call("aria2.tellStatus", gid).get("status").asText());
    braid("refresh", id, server.url("/renewed.bin")).assertExit(ExitCode.USAGE).assertStderrContains("nothing to refresh");
  }

  @Test
  void ctrlCOfAClientGetLeavesItsDownloadPausedInTheDaemon() throws Exception {
    try (CliProcess get = CliProcess.start(work, "get", "--state-db", db.toString(), "-o",
        downloads.resolve("interrupted.bin").toString(), server.url("/held.bin"))) {
      String gid = awaitActive(downloads.resolve("interrupted.bin"), get);
      new ProcessBuilder("kill", "-INT", Long.toString(get.pid())).start().waitFor();
      get.await(Duration.ofSeconds(20)).assertExit(ExitCode.INTERRUPTED);
      daemon.awaitStatus(gid, s -> s.get("status").asText().equals("paused"), Duration.ofSeconds(5));
    }
  }

  @Test
  void aWaitingDownloadAnotherClientPausesEndsTheGetThatAddedIt() throws Exception {
    String before = daemon.call("aria2.getGlobalOption").get("max-concurrent-downloads").asText();
    daemon.call("aria2.changeGlobalOption", Map.of("max-concurrent-downloads", "1"));
    Path running = downloads.resolve("first-of-two.bin");
    Path waiting = downloads.resolve("second-of-two.bin");
    Path list = Files.writeString(work.resolve("two.txt"), server.url("/held.bin") + "\n  out=" + running.getFileName() + "\n"
        + server.url("/two.bin") + "\n  out=" + waiting.getFileName() + "\n");
    try (CliProcess get = CliProcess.start(work, "get", "--state-db", db.toString(), "-d", downloads.toString(), "-i",
        list.toString())) {
      String first = awaitActive(running, get);
      String second = null;
      for (JsonNode s : daemon.call("aria2.tellWaiting", 0, 100)) {
        if (s.get("files").get(0).get("path").asText().equals(waiting.toString())) {
          second = s.get("gid").asText();
        }
      }
      assertNotNull(second, "the second download waits behind the first");
      // no notification tells of a waiting download paused (as in aria2): the client must see it by looking
      daemon.call("aria2.pause", second);
      daemon.call("aria2.forcePause", first);
      get.await(Duration.ofSeconds(30)).assertExit(ExitCode.INTERRUPTED);
    } finally {
      daemon.call("aria2.changeGlobalOption", Map.of("max-concurrent-downloads", before));
    }
  }

  private static String awaitActive(Path file, CliProcess whileAlive) {
    return Awaitility.await("the client's download of " + file + " active in the daemon").atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(20)).until(() -> {
          if (!whileAlive.isAlive()) {
            throw new AssertionError("the client ended first: " + whileAlive.stderrSoFar());
          }
          for (JsonNode s : daemon.call("aria2.tellActive")) {
            if (s.get("files").get(0).get("path").asText().equals(file.toString())) {
              return s.get("gid").asText();
            }
          }
          return null;
        }, java.util.Objects::nonNull);
  }

  @Test
  void detachOnlyEnqueuesWithADaemon() throws Exception {
    CliProcess.Result r = braid("get", "--detach", "-o", downloads.resolve("detached.bin").toString(),
        server.url("/slow.bin")).assertExit(ExitCode.OK);
    Matcher m = DETACHED.matcher(r.stdout());
    assertTrue(m.find(), r::describe);
    assertEquals(Long.parseLong(m.group(2), 16), Long.parseLong(m.group(1)));
    JsonNode s = daemon.call("aria2.tellStatus", m.group(2));
    assertEquals(downloads.resolve("detached.bin").toString(), s.get("files").get(0).get("path").asText());
    daemon.call("aria2.remove", m.group(2));
  }

  @Test
  void withoutADaemonGetRunsInProcessAndDetachOnlyEnqueues() throws Exception {
    Path alone = work.resolve("alone.db");
    // a port file a SIGKILLed daemon left behind: the lock is free, so no daemon runs
    Files.writeString(DaemonLink.portFileOf(alone), daemon.port + "\n");
    Files.writeString(dev.braid.client.remote.EngineLock.fileOf(alone), "1\n");
    Path out = Files.createDirectories(work.resolve("alone"));
    CliProcess.Result r = CliProcess.run(work, "get", "--state-db", alone.toString(), "-d", out.toString(),
        server.url("/one.bin")).assertExit(ExitCode.OK);
    assertEquals(ONE.sha256Hex(), CliTestSupport.sha256Hex(out.resolve("one.bin")), r::describe);
    for (JsonNode s : daemon.call("aria2.tellStopped", 0, 1000)) {
      assertFalse(s.get("files").get(0).get("path").asText().startsWith(out.toString()), "the daemon of another store ran it");
    }
    CliProcess.Result d = CliProcess.run(work, "get", "--detach", "--state-db", alone.toString(), "-d", out.toString(),
        server.url("/two.bin")).assertExit(ExitCode.OK);
    Matcher m = DETACHED.matcher(d.stdout());
    assertTrue(m.find(), d::describe);
    CliProcess.Result list = CliProcess.run(work, "list", "--state-db", alone.toString()).assertExit(ExitCode.OK);
    assertTrue(list.stdout().lines().anyMatch(l -> l.matches("\\s*" + m.group(1) + "\\s+(queued|paused|active)\\s+.*two\\.bin")),
        list::describe);
    // --proxy goes into the queue as the download's own (for the daemon that takes it), never a password
    CliProcess.Result proxied = CliProcess.run(work, "get", "--detach", "--proxy", "http://127.0.0.1:9", "--state-db",
        alone.toString(), "-d", out.toString(), server.url("/one.bin")).assertExit(ExitCode.OK);
    Matcher p = DETACHED.matcher(proxied.stdout());
    assertTrue(p.find(), proxied::describe);
    try (dev.braid.core.Braid reader = dev.braid.core.Braid.builder().stateDatabase(alone).build()) {
      assertEquals(java.util.Optional.of("http://127.0.0.1:9"), reader.download(Long.parseLong(p.group(1))).orElseThrow().proxy());
    }
    CliProcess.Result secret = CliProcess.run(work, "get", "--detach", "--proxy", "http://u:pw@127.0.0.1:9", "--state-db",
        alone.toString(), "-d", out.toString(), server.url("/two.bin")).assertExit(ExitCode.USAGE);
    assertTrue(secret.stderr().contains("nothing secret is stored") && !secret.stderr().contains("pw"), secret::describe);
  }

  /**
   * {@code braid mcp} on the daemon's state database adds through the daemon: the daemon's folder
   * guard refuses a folder outside its own (a tool error, nothing made there), the download is the
   * daemon's (its RPC shows it complete), a request sent just before the pipe closes is answered,
   * the daemon's downloads outlive the server, and the server's standard output carries protocol
   * messages only.
   */
  @Test
  void mcpAddsThroughTheDaemonInItsFolders() throws Exception {
    try (McpPipe mcp = McpPipe.start(work, "--state-db", db.toString())) {
      Path elsewhere = work.resolve("mcp-elsewhere");
      JsonNode outside = mcp.call("add_download", Map.of("url", server.url("/one.bin"), "folder", elsewhere.toString()));
      assertTrue(outside.path("isError").asBoolean(), outside::toString);
      assertTrue(outside.path("content").path(0).path("text").asText().contains("outside"), outside::toString);
      assertFalse(Files.exists(elsewhere), "nothing is made where the daemon may not write");

      Path inside = downloads.resolve("mcp");
      long id = mcp.ok("add_download", Map.of("url", server.url("/one.bin"), "folder", inside.toString())).path("id").asLong();
      JsonNode done = mcp.ok("wait_for_download", Map.of("id", id, "timeout_seconds", 30));
      assertEquals("completed", done.path("state").asText(), done::toString);
      assertEquals(inside.resolve("one.bin").toString(), done.path("file").asText());
      assertEquals(ONE.sha256Hex(), CliTestSupport.sha256Hex(inside.resolve("one.bin")));
      assertEquals("complete", daemon.call("aria2.tellStatus", String.format("%016x", id)).path("status").asText());

      // the last request before the pipe closed is answered, a second later, before the server ends
      long slow = mcp.ok("add_download", Map.of("url", server.url("/slow.bin"), "folder", inside.toString())).path("id").asLong();
      JsonNode last = mcp.lastCall("wait_for_download", Map.of("id", slow, "timeout_seconds", 1), Duration.ofSeconds(20));
      assertFalse(last.path("structuredContent").path("finished").asBoolean(), last::toString);
      assertTrue(daemon.process.isAlive(), "the daemon runs on when its MCP client ends");
      assertEquals("active", daemon.call("aria2.tellStatus", String.format("%016x", slow)).path("status").asText());
      daemon.call("aria2.remove", String.format("%016x", slow));
      for (String line : mcp.stdoutLines()) {
        assertEquals("2.0", RpcDaemon.JSON.readTree(line).path("jsonrpc").asText(), () -> "no protocol message: " + line);
      }
    }
  }
}
