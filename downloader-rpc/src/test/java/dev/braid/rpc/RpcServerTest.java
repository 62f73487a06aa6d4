package dev.braid.rpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.testserver.Content;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The server in-process in front of a real Braid and the loopback test server: the methods a process test does not reach. */
class RpcServerTest extends RpcHarness {
  private static final ObjectMapper JSON = RpcCalls.JSON;

  private JsonNode post(JsonNode body) throws Exception {
    return calls.post(body);
  }

  private ObjectNode request(String method, Object... params) {
    return calls.request(method, params);
  }

  private JsonNode call(String method, Object... params) throws Exception {
    return calls.call(method, params);
  }

  private List<String> waitingGids() throws Exception {
    List<String> out = new ArrayList<>();
    call("aria2.tellWaiting", 0, 10, List.of("gid")).forEach(n -> out.add(n.get("gid").asText()));
    return out;
  }

  @Test
  void changePositionReordersTheWaitingList() throws Exception {
    for (String name : List.of("a", "b", "c")) {
      server.serve("/" + name, Content.random(1024, name.charAt(0)));
    }
    String a = call("aria2.addUri", List.of(server.url("/a")), Map.of("pause", "true")).asText();
    String b = call("aria2.addUri", List.of(server.url("/b")), Map.of("pause", "true")).asText();
    String c = call("aria2.addUri", List.of(server.url("/c")), Map.of("pause", "true")).asText();
    assertEquals(List.of(a, b, c), waitingGids());
    assertEquals(0, call("aria2.changePosition", c, 0, "POS_SET").asInt());
    assertEquals(List.of(c, a, b), waitingGids());
    assertEquals(2, call("aria2.changePosition", c, 0, "POS_END").asInt());
    assertEquals(List.of(a, b, c), waitingGids());
    assertEquals(1, call("aria2.changePosition", c, -1, "POS_CUR").asInt());
    assertEquals(List.of(a, c, b), waitingGids());
    assertEquals(List.of(b, c, a), reversed(call("aria2.tellWaiting", -1, 3, List.of("gid"))), "a negative offset reads backwards");
  }

  private static List<String> reversed(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.forEach(n -> out.add(n.get("gid").asText()));
    return out;
  }

  @Test
  void segmentsOfARunningDownloadAndLiveConcurrency() throws Exception {
    server.serve("/slow", Content.random(8L << 20, 5)).rateLimitPerConnection(256 << 10);
    server.serve("/next", Content.random(4096, 6));
    String slow = call("aria2.addUri", List.of(server.url("/slow")), Map.of("split", "2")).asText();
    String next = call("aria2.addUri", List.of(server.url("/next"))).asText();
    JsonNode segments = await("a running download has segments").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
        .until(() -> call("braid.tellSegments", slow), n -> !n.isEmpty());
    assertTrue(segments.get(0).get("start").isTextual() && segments.get(0).get("active").isTextual(), segments::toString);
    assertEquals("waiting", call("aria2.tellStatus", next, List.of("status")).get("status").asText(), "one download at once");
    assertEquals("OK", call("aria2.changeGlobalOption", Map.of("max-concurrent-downloads", "2")).asText());
    await("a second slot opened while the first download runs").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
        .until(() -> call("aria2.tellStatus", next, List.of("status")).get("status").asText().equals("complete"));
    assertEquals(2, braid.maxActiveDownloads());
    assertTrue(call("braid.tellSegments", next).isEmpty(), "a completed download has no segments at work");
    call("aria2.forceRemove", slow);
  }

  @Test
  void streamPieceSelectorInorderFetchesFromTheFrontAndAnUnknownOneIsRefused() throws Exception {
    server.serve("/movie", Content.random(64L << 20, 7)).etag("\"m\"").rateLimitPerConnection(2L << 20);
    JsonNode bad = post(request("aria2.addUri", List.of(server.url("/movie")), Map.of("stream-piece-selector", "backwards")));
    assertTrue(bad.get("error").get("message").asText().contains("stream-piece-selector"), bad::toString);
    String gid = call("aria2.addUri", List.of(server.url("/movie")),
        Map.of("split", "4", "stream-piece-selector", "inorder")).asText();
    JsonNode segments = await("several connections at work").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
        .until(() -> call("braid.tellSegments", gid), n -> n.size() >= 3);
    // an ordinary download sends its connections to 16, 32 and 48 MiB; in order they work the first 16 MiB and a request
    for (JsonNode s : segments) {
      assertTrue(Long.parseLong(s.get("start").asText()) < (20L << 20), segments::toString);
    }
    call("aria2.forceRemove", gid);
  }

  @Test
  void theScheduleIsAGlobalOptionChangedLiveAndStoredForTheQueue() throws Exception {
    assertEquals("", call("aria2.getGlobalOption").get("braid-run-window").asText());
    // a bad one is refused with the reason, and changes nothing (not even the other option of the call);
    // checked before a speed schedule is set, whose limit for the hour the test runs in would hide the rate
    JsonNode bad = post(request("aria2.changeGlobalOption", Map.of("braid-run-window", "Mon-Fry 01:00-02:00",
        "max-overall-download-limit", "1M")));
    assertTrue(bad.get("error").get("message").asText().contains("'Fry' is not a day"), bad::toString);
    assertEquals(0, braid.rateLimit());
    assertTrue(braid.runWindows().isEmpty());
    assertEquals("OK", call("aria2.changeGlobalOption",
        Map.of("braid-run-window", "Mon-Fri 01:00-07:00", "braid-speed-schedule", "09:00-18:00=2M,18:00-09:00=0")).asText());
    assertEquals("Mon-Fri 01:00-07:00", dev.braid.core.RunWindow.toText(braid.runWindows()));
    assertEquals("09:00-18:00=2M,18:00-09:00=0", braid.speedSchedule().toString());
    JsonNode global = call("aria2.getGlobalOption");
    assertEquals("Mon-Fri 01:00-07:00", global.get("braid-run-window").asText());
    assertEquals("09:00-18:00=2M,18:00-09:00=0", global.get("braid-speed-schedule").asText());
    assertEquals("09:00-18:00=2M,18:00-09:00=0", braid.settings().get(dev.braid.core.SpeedSchedule.SETTING));
    assertEquals("OK", call("aria2.changeGlobalOption", Map.of("braid-run-window", "")).asText());
    assertTrue(braid.runWindows().isEmpty());
  }

  @Test
  void aPausedDownloadsPiecesComeFromItsRecord() throws Exception {
    server.serve("/pieces.bin", Content.random(4L << 20, 10)).etag("\"p\"").rateLimitPerConnection(1 << 20);
    String gid = call("aria2.addUri", List.of(server.url("/pieces.bin")), Map.of("split", "1")).asText();
    await("2 MiB done").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
        .until(() -> call("aria2.tellStatus", gid, List.of("completedLength")).get("completedLength").asLong() >= (2L << 20));
    call("aria2.forcePause", gid);
    awaitStatus(gid, "paused");
    JsonNode s = call("aria2.tellStatus", gid);
    long done = s.get("completedLength").asLong();
    assertTrue(done >= (2L << 20) && done < (4L << 20), s::toString);
    assertEquals("4", s.path("numPieces").asText(), s::toString);
    assertEquals(Long.toString(1L << 20), s.path("pieceLength").asText(), s::toString);
    // one connection from byte 0: the whole pieces below the recorded length are complete, the rest not
    int whole = (int) (done >> 20);
    assertEquals(Integer.toHexString((0xf0 << (4 - whole)) & 0xf0), s.path("bitfield").asText(), s::toString);
    call("aria2.forceRemove", gid);
  }

  @Test
  void changeUriChangesTheMirrorsOfAPausedDownload() throws Exception {
    Content content = Content.random(4L << 20, 9);
    server.serve("/slow.bin", content).etag("\"same\"").rateLimitPerConnection(64 << 10);
    server.serve("/fast.bin", content).etag("\"same\"");
    String slow = server.url("/slow.bin");
    String fast = server.url("/fast.bin");
    String gid = call("aria2.addUri", List.of(slow), Map.of("out", "real.bin", "split", "2")).asText();
    awaitStatus(gid, "active");
    assertEquals(1, post(request("aria2.changeUri", gid, 1, List.of(), List.of(fast))).get("error").get("code").asInt(),
        "a running download's mirrors stay");
    call("aria2.forcePause", gid);
    awaitStatus(gid, "paused");
    assertEquals(1, post(request("aria2.changeUri", gid, 1, List.of(slow), List.of())).get("error").get("code").asInt(),
        "a download keeps at least one URI");
    assertEquals("[0,1]", call("aria2.changeUri", gid, 1, List.of(), List.of(fast)).toString());
    JsonNode uris = call("aria2.getUris", gid);
    assertEquals(List.of(slow, fast), List.of(uris.get(0).get("uri").asText(), uris.get(1).get("uri").asText()));
    // the slow origin speeds up too: the test waits for the file, not for the throttle
    server.serve("/slow.bin", content).etag("\"same\"");
    call("aria2.unpause", gid);
    awaitStatus(gid, "complete");
    assertEquals(content.sha256Hex(), sha256(work.resolve("real.bin")), "byte-identical with the added mirror");
    assertTrue(server.requests().stream().anyMatch(r -> r.path().equals("/fast.bin") && r.range() != null),
        "the added mirror served ranges");
  }

  @Test
  void changeUriOfARunningDownloadsOwnUriContinuesFromTheRefreshedLink() throws Exception {
    Content content = Content.random(4L << 20, 10);
    server.serve("/expiring.bin", content).etag("\"v1\"").rateLimitPerConnection(256 << 10);
    server.serve("/refreshed.bin", content).etag("\"v1\"");
    String old = server.url("/expiring.bin");
    String fresh = server.url("/refreshed.bin");
    String gid = call("aria2.addUri", List.of(old), Map.of("out", "link.bin", "split", "2")).asText();
    awaitStatus(gid, "active");
    assertEquals("[1,1]", call("aria2.changeUri", gid, 1, List.of(old), List.of(fresh)).toString());
    awaitStatus(gid, "complete");
    assertEquals(content.sha256Hex(), sha256(work.resolve("link.bin")), "byte-identical across the change of URL");
    assertEquals(fresh, call("aria2.getUris", gid).get(0).get("uri").asText());
    assertTrue(server.requests().stream().anyMatch(r -> r.path().equals("/refreshed.bin") && r.range() != null),
        "the run continued from the new URL");
  }

  @Test
  void changeUriToAUriOfAnotherFileFailsTheRunAndSplicesNothing() throws Exception {
    server.serve("/expiring.bin", Content.random(4L << 20, 11)).etag("\"v1\"").rateLimitPerConnection(128 << 10);
    server.serve("/other.bin", Content.random(4L << 20, 12)).etag("\"other\"");
    String old = server.url("/expiring.bin");
    String gid = call("aria2.addUri", List.of(old), Map.of("out", "kept.bin")).asText();
    // bytes on disk to prove the new URL against: a run changed before its first byte has nothing
    // of the old file, and rightly takes the new URL whole (a fast machine got there)
    awaitCompleted(gid, 256 << 10);
    call("aria2.changeUri", gid, 1, List.of(old), List.of(server.url("/other.bin")));
    awaitStatus(gid, "error");
    assertFalse(java.nio.file.Files.exists(work.resolve("kept.bin")), "no file made of two files' bytes");
  }

  @Test
  void addUriWithAPositionTakesThatPlaceInTheWaitingList() throws Exception {
    List<String> gids = new ArrayList<>();
    for (String name : List.of("a", "b", "c", "d")) {
      server.serve("/" + name, Content.random(1024, name.charAt(0)));
    }
    for (String name : List.of("a", "b", "c")) {
      gids.add(call("aria2.addUri", List.of(server.url("/" + name)), Map.of("pause", "true")).asText());
    }
    String d = call("aria2.addUri", List.of(server.url("/d")), Map.of("pause", "true"), 1).asText();
    assertEquals(List.of(gids.get(0), d, gids.get(1), gids.get(2)), waitingGids());
    assertEquals(-32602, post(request("aria2.addUri", List.of(server.url("/d")), Map.of(), -1)).get("error").get("code").asInt(),
        "a negative position is refused");
  }

  @Test
  void tellStoppedWindowsSpanTheStoresPageAndTheRemovedResults() throws Exception {
    server.respond("/gone", 404);
    List<String> failed = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      failed.add(call("aria2.addUri", List.of(server.url("/gone") + "?" + i), Map.of("out", "f" + i)).asText());
      awaitStatus(failed.get(i), "error");
    }
    List<String> removed = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      String gid = call("aria2.addUri", List.of(server.url("/gone") + "?r" + i), Map.of("pause", "true")).asText();
      call("aria2.forceRemove", gid);
      awaitStatus(gid, "removed");
      removed.add(gid);
    }
    String f0 = failed.get(0);
    String f1 = failed.get(1);
    String f2 = failed.get(2);
    String r0 = removed.get(0);
    String r1 = removed.get(1);
    assertEquals(List.of(f0, f1, f2, r0, r1), stopped(0, 10));
    assertEquals(List.of(f2, r0), stopped(2, 2));
    assertEquals(List.of(r1), stopped(4, 5));
    assertEquals(List.of(), stopped(5, 1));
    assertEquals(List.of(r1, r0), stopped(-1, 2), "newest first from the end");
    assertEquals(List.of(r0, f2, f1), stopped(-2, 3));
    assertEquals(List.of(f1, f0), stopped(-4, 2));
    assertEquals(List.of(), stopped(-6, 2));
    assertEquals("5", call("aria2.getGlobalStat").get("numStopped").asText());
  }

  @Test
  void aForgottenResultDoesNotComeBackAsRemoved() throws Exception {
    server.serve("/done", Content.random(4096, 7));
    String done = call("aria2.addUri", List.of(server.url("/done"))).asText();
    awaitStatus(done, "complete");
    assertEquals("OK", call("aria2.removeDownloadResult", done).asText());
    // the engine tells removals in order: once a later one shows, the forgotten one was heard
    String later = call("aria2.addUri", List.of(server.url("/done") + "?later"), Map.of("pause", "true")).asText();
    call("aria2.forceRemove", later);
    awaitStatus(later, "removed");
    assertEquals(List.of(later), stopped(0, 10), "a result removeDownloadResult forgot is gone, not shown as removed");
  }

  private List<String> stopped(int offset, int num) throws Exception {
    return reversed(call("aria2.tellStopped", offset, num, List.of("gid")));
  }

  private void awaitStatus(String gid, String wanted) throws Exception {
    await(gid + " " + wanted).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
        .until(() -> call("aria2.tellStatus", gid).get("status").asText().equals(wanted));
  }

  private void awaitCompleted(String gid, long bytes) throws Exception {
    JsonNode s = await(gid + " has " + bytes + " bytes").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
        .until(() -> call("aria2.tellStatus", gid, List.of("status", "completedLength")), n -> n.get("completedLength").asLong() >= bytes);
    assertEquals("active", s.get("status").asText(), s.toString());
  }

  private static String sha256(Path file) throws Exception {
    return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(java.nio.file.Files.readAllBytes(file)));
  }

  @Test
  void aWrongSecretInsideAMulticallIsCodeOneAndSlowed() throws Exception {
    ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "system.multicall");
    ArrayNode calls = r.putArray("params").addArray();
    calls.addObject().put("methodName", "aria2.getGlobalStat").putArray("params").add("token:k");
    calls.addObject().put("methodName", "aria2.getGlobalStat").putArray("params").add("token:wrong");
    long t0 = System.nanoTime();
    JsonNode answer = post(r).get("result");
    assertTrue(System.nanoTime() - t0 >= Duration.ofMillis(250).toNanos(), "held back like a single wrong call");
    assertEquals("0", answer.get(0).get(0).get("numActive").asText());
    assertEquals(1, answer.get(1).get("code").asInt());
    assertEquals("Unauthorized", answer.get(1).get("message").asText());
  }

  @Test
  void aGidThatIsNotSixteenHexDigitsIsRefusedAsAria2RefusesIt() throws Exception {
    for (String bad : List.of("ff", "000000000000000g", "+00000000000000f")) {
      JsonNode error = post(request("aria2.tellStatus", bad)).get("error");
      assertEquals(1, error.get("code").asInt(), error::toString);
      assertEquals("Bad GID " + bad, error.get("message").asText());
    }
  }
}
