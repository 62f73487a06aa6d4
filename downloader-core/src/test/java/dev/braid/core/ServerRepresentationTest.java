package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Servers whose answers are right but unusual: Apache's weak validators for a file modified
 * within the last second (a 200 to every If-Range), and content codings a server applies by
 * itself or only when asked. A download is of one representation and ends with its bytes.
 */
class ServerRepresentationTest extends DownloadHarness {
  private static final int SIZE = 8 << 20;

  private static Instant justNow() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS);
  }

  @Test
  void aFileModifiedWithinApachesWeakSecondIsDownloadedWhole() throws Exception {
    Content c = Content.random(SIZE, 71);
    server.serve("/f.bin", c).etag("W/\"5f-abc\"").lastModified(justNow()).weakDates(true)
        .rateLimitPerConnection(8L << 20);
    Path out = dir.resolve("f.bin");
    // no restart allowed: a 200 with the probe's own validators is no change, so exit 5 must not happen
    Download d = braid.submit(request("/f.bin", out).connections(4).restartIfChanged(false).build());
    DownloadResult r = await(d);
    assertEquals(1, d.connectionChanges().stream().filter(ch -> ch.reason().contains("without If-Range")).count(),
        "told once: " + d.connectionChanges());
    assertEquals(c.sha256Hex(), sha256(out));
    assertEquals(0, r.restarts());
    assertTrue(server.requests().stream().anyMatch(q -> q.status() == 206 && q.ifRange() == null && q.range() != null
        && !q.range().startsWith("bytes=0-")), "ranges went on without If-Range: " + server.requests());
    assertTrue(server.requests().stream().filter(q -> q.status() == 200).count() <= 4,
        "the If-Range is given up at once, not per request: " + server.requests());
  }

  @Test
  void aWeakEtagTurningStrongWithTheSameDateIsTheSameFile() throws Exception {
    Content c = Content.random(SIZE, 72);
    var res = server.serve("/f.bin", c).etag("W/\"5f-abc\"").lastModified(justNow()).weakDates(true)
        .rateLimitPerConnection(8L << 20);
    AtomicInteger seen = new AtomicInteger();
    // a second later Apache calls the same file's tag strong and honours a date again
    res.onRequest(q -> {
      if (seen.incrementAndGet() == 3) {
        res.etag("\"5f-abc\"").weakDates(false);
      }
    });
    Path out = dir.resolve("f.bin");
    DownloadResult r = get(request("/f.bin", out).connections(4).restartIfChanged(false));
    assertEquals(c.sha256Hex(), sha256(out));
    assertEquals(0, r.restarts());
  }

  @Test
  void aRealChangeBehindWeakValidatorsIsNeverSpliced() throws Exception {
    Content before = Content.random(SIZE, 73);
    Content after = Content.random(SIZE, 74);
    var res = server.serve("/f.bin", before).etag("W/\"v1\"").lastModified(justNow().minusSeconds(5)).weakDates(true)
        .rateLimitPerConnection(4L << 20);
    AtomicInteger seen = new AtomicInteger();
    res.onRequest(q -> {
      if (seen.incrementAndGet() == 3) {
        res.content(after).etag("W/\"v2\"").lastModified(justNow());
      }
    });
    Path out = dir.resolve("f.bin");
    RemoteChangedException e = assertThrows(RemoteChangedException.class,
        () -> get(request("/f.bin", out).connections(4).restartIfChanged(false)));
    assertFalse(e.getMessage().contains("restarts"), e.getMessage());
    assertFalse(Files.exists(out));

    // allowed to restart, the next run ends with the new file, nothing of the old one in it
    seen.set(100);
    Path again = dir.resolve("g.bin");
    get(request("/f.bin", again).connections(4));
    assertEquals(after.sha256Hex(), sha256(again));
  }

  @Test
  void aFileTheServerAlwaysEncodesIsKeptAsSent() throws Exception {
    // Apache's AddEncoding gzip .gz: the .gz bytes, labelled with Content-Encoding on every response
    Content gz = Content.random(12 << 20, 75);
    server.serve("/f.tar.gz", gz).etag("\"gz1\"").contentEncoding("gzip").rateLimitPerConnection(8L << 20);
    Path out = dir.resolve("f.tar.gz");
    DownloadResult r = get(request("/f.tar.gz", out).connections(4));
    assertEquals(gz.sha256Hex(), sha256(out));
    assertEquals(gz.size(), r.length());
    long served = server.bodyBytesSent();
    assertTrue(served < gz.size() * 3 / 2, "served " + served + " bytes for a file of " + gz.size());
  }

  @Test
  void aUsersAcceptEncodingCannotTurnTheDownloadIntoAnotherRepresentation() throws Exception {
    Content plain = Content.random(SIZE, 76);
    Content compressed = Content.random(3 << 20, 77);
    server.serve("/f.bin", plain).etag("\"p1\"").encodedWhenAccepted("gzip", compressed).rateLimitPerConnection(8L << 20);
    Path out = dir.resolve("f.bin");
    DownloadResult r = get(request("/f.bin", out).connections(4).header("Accept-Encoding", "gzip, deflate, br"));
    assertEquals(plain.sha256Hex(), sha256(out));
    assertEquals(plain.size(), r.length());
    for (RequestRecord q : server.requests()) {
      assertEquals("identity", q.header("Accept-Encoding"), "request " + q);
    }
  }

  @Test
  void aServerThatStartsEncodingMidwayIsNeverSplicedIntoTheFile() throws Exception {
    Content c = Content.random(SIZE, 78);
    var res = server.serve("/f.bin", c).etag("\"e1\"").rateLimitPerConnection(4L << 20);
    AtomicInteger seen = new AtomicInteger();
    res.onRequest(q -> {
      if (seen.incrementAndGet() == 2) {
        res.contentEncoding("gzip");
      }
    });
    Path out = dir.resolve("f.bin");
    assertThrows(IntegrityException.class, () -> get(request("/f.bin", out).connections(2)));
    assertFalse(Files.exists(out));
  }
}
