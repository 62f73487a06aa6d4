package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19's "done means", with processes nobody here wrote driving it: npm's aria2.js adds 50
 * URLs to a {@code braid daemon}, watches the queue each second, pauses five downloads and resumes
 * them, and hears every completion; meanwhile {@code braid list} in another process shows the
 * same queue. (The desktop app attached to a daemon: AppEngineTest in downloader-gui.)
 */
class DaemonFiftyDownloadsTest {
  private static final int FILES = 50;
  private static final Pattern ROW = Pattern.compile("\\s*(\\d+)\\s+(\\w+)\\s+.*\\s(f\\d+\\.bin)");

  @TempDir Path work;

  @Test
  void aClientAddsFiftyWatchesPausesResumesAndHearsEachCompletionWhileBraidListShowsTheSameQueue() throws Exception {
    Path scripts = Aria2Js.install();
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    Path db = work.resolve("state.db");
    List<Content> contents = new ArrayList<>();
    List<String> urls = new ArrayList<>();
    try (TestServer server = TestServer.start();
        RpcDaemon daemon = RpcDaemon.start(work, db, downloads, "fifty", "-j", "10")) {
      for (int i = 0; i < FILES; i++) {
        Content c = Content.random(512 << 10, 500 + i);
        contents.add(c);
        // slow enough that a download is still running a second after it starts
        server.serve("/f" + i, c).etag("\"f" + i + "\"").rateLimitPerConnection(128 << 10);
        urls.add(server.url("/f" + i));
      }
      List<String> args = new ArrayList<>(List.of(Integer.toString(daemon.port), "fifty"));
      args.addAll(urls);
      CompletableFuture<JsonNode> client = CompletableFuture.supplyAsync(() -> {
        try {
          return Aria2Js.script(scripts, "fifty.js", Duration.ofSeconds(150), args);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });

      // "braid list in another terminal", mid-batch: the same 50 entries; what the daemon had
      // finished before the list was read is listed completed
      Set<String> finishedBefore = awaitSomeFinishedAndSomeWaiting(daemon, client);
      CliProcess.Result listed = CliProcess.run(work, "list", "--state-db", db.toString()).assertExit(ExitCode.OK);
      Map<String, String> stateByGid = new HashMap<>();
      Map<String, String> nameByGid = new HashMap<>();
      for (String line : listed.stdout().lines().toList()) {
        Matcher m = ROW.matcher(line);
        if (m.matches()) {
          String gid = String.format("%016x", Long.parseLong(m.group(1)));
          stateByGid.put(gid, m.group(2));
          nameByGid.put(gid, m.group(3));
        }
      }
      assertEquals(FILES, stateByGid.size(), listed::describe);
      for (String gid : finishedBefore) {
        assertEquals("completed", stateByGid.get(gid), () -> gid + " finished in the daemon: " + listed.describe());
      }
      assertTrue(stateByGid.containsValue("queued") || stateByGid.containsValue("paused")
          || stateByGid.containsValue("active"), listed::describe);

      JsonNode seen = client.join();
      List<String> added = strings(seen.get("added"));
      assertEquals(FILES, new HashSet<>(added).size());
      for (int i = 0; i < FILES; i++) {
        assertEquals("f" + i + ".bin", nameByGid.get(added.get(i)), "braid list names the download the client added");
        assertEquals(contents.get(i).sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("f" + i + ".bin")));
      }
      Map<String, Integer> completions = new HashMap<>();
      Map<String, Integer> pauses = new HashMap<>();
      for (JsonNode e : seen.get("events")) {
        String event = e.get("event").asText();
        if (event.equals("onDownloadComplete")) {
          completions.merge(e.get("gid").asText(), 1, Integer::sum);
        } else if (event.equals("onDownloadPause")) {
          pauses.merge(e.get("gid").asText(), 1, Integer::sum);
        } else {
          assertEquals("onDownloadStart", event, seen.get("events")::toString);
        }
      }
      assertEquals(Set.copyOf(added), completions.keySet(), "a completion heard for each download");
      assertTrue(completions.values().stream().allMatch(n -> n == 1), () -> "each completion heard once: " + completions);
      List<String> paused = strings(seen.get("paused"));
      assertEquals(5, paused.size(), seen::toString);
      assertEquals(Set.copyOf(paused), Set.copyOf(strings(seen.get("pausedSeen"))), "the five were paused a second later");
      for (String gid : paused.subList(0, 2)) {
        assertEquals(1, pauses.getOrDefault(gid, 0), () -> "a running download paused is heard paused: " + pauses);
      }
      for (JsonNode look : seen.get("looks")) {
        assertTrue(look.get("active").asInt() <= 10, () -> "more than -j 10 at once: " + look);
      }
      assertTrue(seen.get("looks").size() >= 3, "watched each second until the end");
      JsonNode last = seen.get("last");
      assertEquals(FILES, last.get("stopped").asInt(), last::toString);
      assertEquals(0, last.get("active").asInt() + last.get("waiting").asInt(), last::toString);
      assertEquals(Integer.toString(FILES), last.get("stat").get("numStoppedTotal").asText(), last::toString);
      daemon.process.terminate().assertExit(ExitCode.OK);
    }
  }

  /** Waits until the daemon has finished some downloads and still has some waiting; their gids. */
  private static Set<String> awaitSomeFinishedAndSomeWaiting(RpcDaemon daemon, CompletableFuture<?> client) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < deadline && !client.isDone()) {
      Set<String> finished = new HashSet<>();
      for (JsonNode s : daemon.call("aria2.tellStopped", 0, 1000, List.of("gid", "status"))) {
        if (s.get("status").asText().equals("complete")) {
          finished.add(s.get("gid").asText());
        }
      }
      if (!finished.isEmpty() && daemon.call("aria2.tellWaiting", 0, 1000, List.of("gid")).size() > 0) {
        return finished;
      }
      Thread.sleep(100);
    }
    client.join();
    throw new AssertionError("the daemon never had finished and waiting downloads at once");
  }

  private static List<String> strings(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.forEach(n -> out.add(n.asText()));
    return out;
  }
}
