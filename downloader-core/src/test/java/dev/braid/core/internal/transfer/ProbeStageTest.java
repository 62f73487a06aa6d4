package dev.braid.core.internal.transfer;

import dev.braid.core.time.Ticker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.HttpStatusException;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.testserver.Content;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The probe stage alone, against the loopback test server: which URL answers, what is retried, what fails. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProbeStageTest {
  private static final ResumePlanner.ProbeRange FIRST = new ResumePlanner.ProbeRange(0, 1000, 0);

  @TempDir Path dir;
  private StageParts parts;
  private final List<String> notes = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    parts = new StageParts(dir);
  }

  @AfterEach
  void stop() {
    parts.close();
  }

  private ProbeStage stage(DownloadRequest request, boolean paused, Deadline deadline) {
    return new ProbeStage(request, OriginHeaders.NONE, parts.route, parts.recorder, StageParts.SETTINGS,
        new PassControl(() -> paused, Ticker.SYSTEM), deadline, notes::add);
  }

  private DownloadRequest request(String path, String... mirrors) throws Exception {
    return DownloadRequest.builder(parts.server.url(path)).file(dir.resolve("f"))
        .mirrors(List.of(mirrors).stream().map(parts.server::url).toList()).build();
  }

  @Test
  void aDeadMainUrlFallsToTheFirstMirrorThatAnswersAndKeepsTheRestAsMirrors() throws Exception {
    parts.server.respond("/dead", 404);
    parts.server.serve("/m1", Content.random(5000, 1));
    parts.server.serve("/m2", Content.random(5000, 1));
    ProbeStage.Answer a = stage(request("/dead", "/m1", "/m2"), false, parts.noDeadline()).probe(FIRST);
    a.result().exchange().abort();
    assertTrue(a.result().identity().finalUrl().endsWith("/m1"), a.result().identity().finalUrl());
    assertEquals(List.of(parts.url("/m2")), a.otherUrls());
    assertEquals(1, notes.size(), notes.toString());
    assertTrue(notes.get(0).contains("/dead failed") && notes.get(0).contains("trying the mirror " + parts.url("/m1")),
        notes.get(0));
  }

  @Test
  void aUrlServingAnotherLengthThanExpectedIsPassedOver() throws Exception {
    parts.server.serve("/other", Content.random(2000, 1));
    parts.server.serve("/right", Content.random(1000, 1));
    DownloadRequest r = DownloadRequest.builder(parts.server.url("/other")).file(dir.resolve("f")).expectedLength(1000)
        .mirrors(List.of(parts.server.url("/right"))).build();
    ProbeStage.Answer a = stage(r, false, parts.noDeadline()).probe(FIRST);
    a.result().exchange().abort();
    assertEquals(1000, a.result().identity().length());
    assertTrue(notes.get(0).contains("serves 2000 bytes where 1000 were expected"), notes.toString());
  }

  @Test
  void whenEveryUrlFailsTheMainUrlsErrorIsReported() throws Exception {
    parts.server.respond("/dead", 404);
    parts.server.respond("/gone", 410);
    HttpStatusException e = assertThrows(HttpStatusException.class,
        () -> stage(request("/dead", "/gone"), false, parts.noDeadline()).probe(FIRST));
    assertEquals(404, e.status());
  }

  @Test
  void transientFailuresAreRetriedUnderTheFailurePolicy() throws Exception {
    parts.server.serve("/busy", Content.random(5000, 1)).failNext(503, 2, null);
    ProbeStage.Answer a = stage(request("/busy"), false, parts.noDeadline()).probe(FIRST);
    a.result().exchange().abort();
    assertEquals(5000, a.result().identity().length());
    assertEquals(2, parts.recorder.snapshot(0).retries());
    assertEquals(3, parts.server.requests().size());
  }

  @Test
  void aPauseEndsTheWaitForTheNextTry() throws Exception {
    parts.server.serve("/busy", Content.random(5000, 1)).failNext(503, 5, 30);
    long start = System.nanoTime();
    assertThrows(DownloadPausedException.class,
        () -> stage(request("/busy"), true, parts.noDeadline()).probe(FIRST));
    assertEquals(1, parts.server.requests().size(), "no second try once paused");
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "the 30 s Retry-After was not waited out");
  }

  @Test
  void pastTheDeadlineNoMirrorIsTried() throws Exception {
    parts.server.respond("/dead", 404);
    parts.server.serve("/m1", Content.random(5000, 1));
    Deadline passed = new Deadline(Duration.ofSeconds(1), () -> Duration.ofSeconds(2));
    HttpStatusException e = assertThrows(HttpStatusException.class,
        () -> stage(request("/dead", "/m1"), false, passed).probe(FIRST));
    assertEquals(404, e.status());
    assertTrue(parts.server.requests().stream().noneMatch(r -> r.path().equals("/m1")), parts.server.requests().toString());
  }
}
