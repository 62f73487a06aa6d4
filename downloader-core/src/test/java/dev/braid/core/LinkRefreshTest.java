package dev.braid.core;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A partial download continues from a new URL only where that URL proves to serve the same file. */
class LinkRefreshTest extends DownloadHarness {
  static final int LENGTH = 16 << 20;

  @Test
  void anExpiredSignedUrlIsRefreshedAndTheFileCompletesFetchingLittleTwice() throws Exception {
    Content c = Content.random(LENGTH, 41);
    Resource r = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(8 << 20).expiringTokens(6 << 20);
    AtomicInteger asked = new AtomicInteger();
    UrlRefresher fresh = (expired, status) -> {
      asked.incrementAndGet();
      assertEquals(403, status);
      return Optional.of(URI.create(server.url("/f.bin?token=" + r.freshToken())));
    };
    Path file = dir.resolve("f.bin");
    DownloadResult result = await(braid.submit(DownloadRequest.builder(server.url("/f.bin?token=" + r.freshToken()))
        .file(file).connections(4).urlRefresher(fresh).maxUrlRefreshes(5).build()));
    assertEquals(c.sha256Hex(), sha256(file));
    assertTrue(asked.get() >= 1, "the link expired at 6 MiB of 16, so it was refreshed");
    // what was fetched twice is what the connections had in flight when the link expired
    long twice = r.bodyBytesSent() - LENGTH;
    System.out.println("link refresh: " + asked.get() + " refreshes, " + twice + " bytes fetched twice");
    assertTrue(twice <= (long) asked.get() * 4 * (1 << 20), "fetched twice: " + twice + " bytes over "
        + asked.get() + " refreshes");
    assertEquals(LENGTH, result.length());
  }

  @Test
  void aResumeWhoseLinkExpiredMeanwhileAsksTheRefresherAtTheProbe() throws Exception {
    Content c = Content.random(LENGTH, 46);
    Resource r = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(8 << 20).expiringTokens(6 << 20);
    Path file = dir.resolve("f.bin");
    String expired = server.url("/f.bin?token=" + r.freshToken());
    assertEquals(403, assertThrows(HttpStatusException.class,
        () -> get(DownloadRequest.builder(expired).file(file).connections(4))).status());
    long kept = Files.size(dir.resolve("f.bin.part"));
    AtomicInteger asked = new AtomicInteger();
    get(DownloadRequest.builder(expired).file(file).connections(4).urlRefresher((old, status) -> {
      asked.incrementAndGet();
      return Optional.of(URI.create(server.url("/f.bin?token=" + r.freshToken())));
    }));
    assertEquals(c.sha256Hex(), sha256(file));
    assertTrue(asked.get() >= 1);
    assertTrue(kept > 0);
    assertTrue(r.bodyBytesSent() <= LENGTH + 4 * (1 << 20), "served " + r.bodyBytesSent());
  }

  @Test
  void aFreshDownloadRefusedAtOnceIsAWrongUrlAndTheRefresherIsNotAsked() throws Exception {
    server.respond("/gone.bin", 404);
    AtomicInteger asked = new AtomicInteger();
    HttpStatusException e = assertThrows(HttpStatusException.class, () -> get(request("/gone.bin", dir.resolve("g"))
        .urlRefresher((old, status) -> {
          asked.incrementAndGet();
          return Optional.empty();
        })));
    assertEquals(404, e.status());
    assertEquals(0, asked.get());
  }

  @Test
  void aNewUrlWithOtherValidatorsAndTheSameBlocksContinuesTheDownload() throws Exception {
    Content c = Content.random(LENGTH, 42);
    server.serve("/f.bin", c).etag("\"main\"").rateLimitPerConnection(2 << 20);
    Resource edge = server.serve("/edge.bin", c).etag("\"edge\"");
    Path file = dir.resolve("f.bin");
    Download d = braid.submit(request("/f.bin", file).connections(2).build());
    awaitProgress(d, 8 << 20);
    long done = d.progress().done();
    d.changeUrl(URI.create(server.url("/edge.bin")));
    await(d);
    assertEquals(c.sha256Hex(), sha256(file));
    // the rest, plus the sampled blocks (at most three of 1 MiB), plus up to 1 MiB per connection
    // in flight at the change (measured: one such MiB fetched again in a loaded run), plus the
    // probe's 16 KiB of bytes on disk, compared with the edge's
    long most = LENGTH - done + 3 * (1 << 20) + 2 * (1 << 20) + (16 << 10);
    assertTrue(edge.bodyBytesSent() <= most, "the edge served " + edge.bodyBytesSent()
        + " bytes, more than " + most + ": the bytes on disk were not reused");
    assertTrue(d.notes().stream().anyMatch(n -> n.message().contains("serves the same file")), d.notes().toString());
    assertEquals(server.url("/edge.bin"), d.url());
  }

  @Test
  void aNewUrlServingOtherBytesIsRefusedAndNothingIsSpliced() throws Exception {
    Content c = Content.random(LENGTH, 43);
    server.serve("/f.bin", c).etag("\"a\"").rateLimitPerConnection(2 << 20);
    server.serve("/other.bin", Content.random(LENGTH, 44)).etag("\"b\"");
    Path file = dir.resolve("f.bin");
    Download d = braid.submit(request("/f.bin", file).connections(2).build());
    awaitProgress(d, 4 << 20);
    d.pause();
    assertThrows(DownloadPausedException.class, () -> await(d));
    Path part = dir.resolve("f.bin.part");
    byte[] before = Files.readAllBytes(part);
    d.changeUrl(URI.create(server.url("/other.bin")));
    d.resume();
    LinkRefusedException e = assertThrows(LinkRefusedException.class, () -> await(d));
    assertTrue(e.getMessage().contains("Nothing was spliced") && e.getMessage().contains("are not the ones on disk"),
        e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(part));
    assertFalse(Files.exists(file));
    assertEquals(DownloadState.FAILED, d.state());
  }

  @Test
  void aRefresherThatHangsIsCutOffAndTheDownloadFailsAsItWould() throws Exception {
    Content c = Content.random(LENGTH, 45);
    Resource r = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(4 << 20).expiringTokens(2 << 20);
    UrlRefresher hangs = (expired, status) -> {
      Thread.sleep(60_000);
      return Optional.empty();
    };
    Path file = dir.resolve("f.bin");
    long start = System.nanoTime();
    HttpStatusException e = assertThrows(HttpStatusException.class, () -> await(braid.submit(
        DownloadRequest.builder(server.url("/f.bin?token=" + r.freshToken())).file(file).connections(2)
            .urlRefresher(hangs).urlRefreshTimeout(Duration.ofMillis(300)).build())));
    assertEquals(403, e.status());
    assertTrue(e.getMessage().contains("no answer within 0.3 s"), e.getMessage());
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(20).toNanos());
    assertTrue(Files.size(dir.resolve("f.bin.part")) > 0, "the bytes so far are kept");
  }
}
