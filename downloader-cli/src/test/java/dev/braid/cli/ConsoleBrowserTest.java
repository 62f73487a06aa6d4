package dev.braid.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.rpc.KeyFile;
import dev.braid.rpc.Scope;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Braid's web console in a real browser (Debian's chromium, driven by Playwright) against a real
 * {@code braid daemon} and a real file server: signing in, the run windows and speed schedule,
 * adding (with a file name and checksum, from a picked list file, from a dropped Metalink), pausing, resuming, the
 * details' drawings, mirrors, notes and measurements, the fleet and the hosts, the speed limit, removing, paging, a phone's
 * width, a read-only key's view, and nothing fetched from elsewhere.
 */
class ConsoleBrowserTest {
  private static final String SECRET = "console-s3cret";

  @TempDir Path work;

  @Test
  void theConsoleRunsTheQueueInABrowser() throws Exception {
    long begun = System.nanoTime();
    Path scripts = ConsoleBrowser.install();
    long installed = System.nanoTime();
    Path dir = Files.createDirectories(work.resolve("downloads"));
    Content a = Content.random(1L << 20, 31);
    Content b = Content.random(6L << 20, 32);
    Content c = Content.random(64 << 10, 33);
    Content d = Content.random(256 << 10, 34);
    Content e = Content.random(128 << 10, 35);
    try (TestServer server = TestServer.start();
        RpcDaemon daemon = RpcDaemon.start(work, work.resolve("state.db"), dir, SECRET)) {
      server.serve("/a.bin", a).etag("\"a\"");
      server.serve("/mirror/a.bin", a).etag("\"a\"");
      server.serve("/b.bin", b).etag("\"b\"");
      server.serve("/c.bin", c).etag("\"c\"");
      server.serve("/d.bin", d).etag("\"d\"");
      server.serve("/e.bin", e).etag("\"e\"");
      System.out.println("ConsoleBrowserTest: install " + Duration.ofNanos(installed - begun).toMillis()
          + " ms, daemon started " + Duration.ofNanos(System.nanoTime() - installed).toMillis() + " ms");
      String console = "http://127.0.0.1:" + daemon.port + "/";
      // the console's line follows the line RpcDaemon waited for: under load, a moment later
      await("the daemon names its console").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
          .until(() -> daemon.process.stderrSoFar().contains("web console on " + console));

      long start = System.nanoTime();
      // a dashboard's key, made while the daemon runs: it sees it at its next call
      String readKey = new KeyFile(KeyFile.fileOf(work.resolve("state.db")), Clock.systemUTC()).add("dash", Scope.READ_ONLY)
          .text();
      JsonNode r = ConsoleBrowser.scenario(scripts, Duration.ofSeconds(90), List.of(console, SECRET,
          server.url("/a.bin"), server.url("/mirror/a.bin"), server.url("/b.bin"), "added", readKey,
          server.url("/c.bin"), c.sha256Hex(), server.url("/d.bin"), server.url("/missing/d.bin"),
          server.url("/e.bin"), Long.toString(e.size()), e.sha256Hex()));
      System.out.println("ConsoleBrowserTest: scenario " + r.get("elapsedMs") + " ms, whole "
          + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms: " + r.get("steps"));

      // the page's own headers
      assertEquals("default-src 'self'; frame-ancestors 'none'", r.get("headers").path("content-security-policy").asText());
      assertEquals("nosniff", r.get("headers").path("x-content-type-options").asText());
      // a wrong secret shows a message and nothing of the queue
      assertTrue(r.get("wrongMessage").asText().contains("Wrong secret"), r::toString);
      assertFalse(r.get("queueShownAfterWrong").asBoolean(), r::toString);
      assertEquals(0, r.get("rowsAfterWrong").asInt());
      // the secret lives in this tab's session only, never in the URL
      assertEquals(console, r.get("urlAfterSignIn").asText());
      assertEquals(SECRET, r.get("storage").get("session").path("braid.secret").asText(), r::toString);
      assertTrue(r.get("storage").get("local").isEmpty(), r::toString);
      // the notifications' socket is the page's own
      assertEquals("ws://127.0.0.1:" + daemon.port + "/jsonrpc", r.path("websocket").asText(), r::toString);
      // the run windows field is the daemon's option, braid's and aria2's; a bad value is refused beside it and changes nothing
      assertEquals("", r.get("windowsShown").asText(), r::toString);
      assertEquals("Mon-Fri 01:00-07:00", r.get("windowsSet").get("braid").asText(), r::toString);
      assertEquals("Mon-Fri 01:00-07:00", r.get("windowsSet").get("aria2").asText(), r::toString);
      assertTrue(r.get("windowsError").asText().contains("25:00"), r::toString);
      assertEquals("true", r.get("windowsInvalid").asText(), r::toString);
      assertEquals("Mon-Fri 01:00-07:00", r.get("windowsAfterBad").asText(), r::toString);
      assertEquals("", r.get("windowsErrorCleared").asText(), r::toString);
      assertEquals("", r.get("windowsCleared").asText(), r::toString);
      assertTrue(r.get("scheduleSet").asText().contains("03:00-04:00="), r::toString);
      assertEquals("", r.get("scheduleCleared").asText(), r::toString);
      // the speed limit field is the daemon's global option
      assertEquals("524288", r.get("limitSet").asText());
      assertEquals("0", r.get("limitCleared").asText());
      // A's line carried its mirror
      assertEquals(List.of(server.url("/a.bin"), server.url("/mirror/a.bin")),
          RpcDaemon.JSON.convertValue(r.get("urisA"), List.class));
      String row = r.get("rowWhileActive").asText();
      assertTrue(row.matches("b\\.bin active \\d+% .* [1-9]\\d* connections? Pause Resume Remove"), row);
      assertEquals("paused", r.get("pausedStatus").asText());
      assertEquals("Resume", r.get("focusAfterPause").asText(), "the focus stays on the row, on the button that undoes");
      assertTrue(List.of("active", "waiting").contains(r.get("resumedStatus").asText()), r::toString);
      assertTrue(r.get("mapText").asText().contains("segments"), r::toString);
      assertTrue(r.get("map").get("width").asInt() > 100 && r.get("map").get("colours").asInt() >= 3, r::toString);
      assertTrue(r.get("graph").get("width").asInt() > 100 && r.get("graph").get("colours").asInt() >= 3, r::toString);
      // the fleet: this daemon, by its pid, running what it drives
      String fleetSelf = r.get("fleetSelf").asText();
      assertTrue(fleetSelf.contains("pid " + daemon.process.pid() + " (this daemon) running"), fleetSelf);
      // the hosts: the file server, with the connection count the daemon's own braid.hosts tells
      String serverHost = "127.0.0.1:" + URI.create(server.url("/")).getPort();
      JsonNode learned = r.get("hostsViaRpc").get(0);
      assertEquals(serverHost, learned.get("host").asText(), r::toString);
      assertTrue(r.get("hostRow").asText().startsWith(serverHost + " " + learned.get("connections").asInt() + " "),
          r.get("hostRow").asText());
      // both complete, with the right bytes, in the folder the form named
      assertEquals("complete", r.get("completeA").get("status").asText());
      assertEquals("complete", r.get("completeB").get("status").asText());
      assertEquals(a.sha256Hex(), CliTestSupport.sha256Hex(dir.resolve("added").resolve("a.bin")));
      assertEquals(b.sha256Hex(), CliTestSupport.sha256Hex(dir.resolve("added").resolve("b.bin")));
      // a malformed checksum: the daemon's refusal, nothing added, the URL kept; then C under its name, checked
      JsonNode bad = r.get("badChecksum");
      assertEquals(0, bad.get("added").asInt(), bad::toString);
      assertTrue(bad.get("notice").asText().contains("not-hex"), bad::toString);
      assertEquals(server.url("/c.bin"), bad.get("urlsKept").asText(), bad::toString);
      assertEquals("sha-256=" + c.sha256Hex(), r.get("optionsC").path("checksum").asText(), r::toString);
      assertEquals(c.sha256Hex(), CliTestSupport.sha256Hex(dir.resolve("added").resolve("c-out.bin")));
      // the list file's line: D with its mirror, complete; its details tell the mirror, its leaving, the measurements
      assertEquals(List.of(server.url("/d.bin"), server.url("/missing/d.bin")),
          RpcDaemon.JSON.convertValue(r.get("urisD"), List.class));
      assertEquals(d.sha256Hex(), CliTestSupport.sha256Hex(dir.resolve("added").resolve("d.bin")));
      JsonNode detailsD = r.get("detailsD");
      assertEquals(server.url("/missing/d.bin"), detailsD.get("mirrors").asText().strip(), detailsD::toString);
      assertTrue(detailsD.get("notes").asText().contains("mirror " + server.url("/missing/d.bin") + " left out"),
          detailsD::toString);
      assertTrue(detailsD.get("measured").asText().matches("(?s).*[1-9]\\d* requests?, .*"), detailsD::toString);
      // the dropped Metalink's file, into the form's folder
      assertEquals(e.sha256Hex(), CliTestSupport.sha256Hex(dir.resolve("added").resolve("e.bin")));
      // Remove took A out of the daemon's list; B stays
      List<?> stopped = RpcDaemon.JSON.convertValue(r.get("stoppedAfterRemove"), List.class);
      assertFalse(stopped.contains(r.get("gidA").asText()), r::toString);
      assertTrue(stopped.contains(r.get("gidB").asText()), r::toString);
      // 64 entries: 50 rows on the first page, 14 on the second, where B (stopped, so last) is
      assertEquals(60, r.get("pausedAdded").asInt(), r::toString);
      assertEquals(50, r.get("firstPageRows").asInt());
      assertEquals(0, r.get("bOnFirstPage").asInt());
      assertEquals(14, r.get("secondPageRows").asInt());
      assertEquals(1, r.get("bOnSecondPage").asInt());
      assertTrue(r.get("nextDisabledOnLast").asBoolean());
      // 390 px: nothing wider than the screen
      JsonNode narrow = r.get("narrow");
      assertEquals(390, narrow.get("clientWidth").asInt(), narrow::toString);
      assertTrue(narrow.get("scrollWidth").asInt() <= 390 && narrow.get("bodyScrollWidth").asInt() <= 390, narrow::toString);
      // signed in with a read-only key: the queue, and no Add, Pause all, Remove, nor an editable limit
      JsonNode readOnly = r.get("readOnly");
      assertTrue(readOnly.get("notice").asText().contains("read-only key dash"), readOnly::toString);
      assertTrue(readOnly.get("rows").asInt() > 0, readOnly::toString);
      assertEquals(0, readOnly.get("add").asInt() + readOnly.get("pauseAll").asInt() + readOnly.get("remove").asInt(),
          readOnly::toString);
      assertFalse(readOnly.get("limitEditable").asBoolean(), readOnly::toString);
      assertFalse(readOnly.get("windowsEditable").asBoolean(), readOnly::toString);
      assertFalse(readOnly.get("listFile").asBoolean(), readOnly::toString);
      // nothing from another host, no error in the page
      assertTrue(r.get("foreign").isEmpty(), r::toString);
      assertTrue(r.get("consoleErrors").isEmpty(), r::toString);
      assertTrue(r.get("pageErrors").isEmpty(), r::toString);
    }
  }
}
