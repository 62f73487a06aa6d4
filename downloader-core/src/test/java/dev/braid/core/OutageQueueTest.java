package dev.braid.core;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The queue waits out outages: a server that goes away (refuses connections) mid-download and comes
 * back, a 404 that fails at once, a pause that ends the wait, and a wait that outlives its Braid.
 * Waits are configured in tenths of seconds so that an outage lasts a second or two.
 */
class OutageQueueTest extends DownloadHarness {
  private static final OutageRetry QUICK = OutageRetry.DEFAULT.withFirstWait(Duration.ofMillis(300))
      .withMaxWait(Duration.ofSeconds(1)).withRetryFor(Duration.ofSeconds(30));

  @Override
  Braid newBraid() throws LocalFileException {
    return braid(QUICK);
  }

  private Braid braid(OutageRetry policy) throws LocalFileException {
    // one retry in a run: the run fails fast, and the queue's wait is what carries the download through
    return Braid.builder().stateDatabase(dir.resolve("state.db")).runQueue(true).maxRetries(1)
        .readTimeout(Duration.ofSeconds(2)).connectTimeout(Duration.ofSeconds(2))
        .firstBackoff(Duration.ofMillis(20)).checkpointInterval(Duration.ofMillis(100)).outageRetry(policy).build();
  }

  @Test
  void aDownloadWaitsOutARefusingServerAndContinuesFromItsBytes() throws Exception {
    Content c = Content.random(3 << 20, 36);
    server.serve("/f.bin", c).etag("\"f\"").rateLimitPerConnection(1 << 20);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).connections(2).build());
    awaitProgress(d, 1 << 20);
    server.goAway(Duration.ofMillis(1500));
    Awaitility.await("the download waits for its next try").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
        .until(() -> d.outageWait().isPresent());
    OutageWait w = d.outageWait().orElseThrow();
    assertEquals(DownloadState.QUEUED, d.state());
    assertTrue(w.nextTry().isAfter(Instant.now().minusSeconds(1)) && w.nextTry().isBefore(Instant.now().plusSeconds(2)), w::toString);
    assertEquals(FailureKind.NETWORK, w.lastFailure().kind(), w::toString);
    DownloadResult r = await(d);
    assertEquals(sha256(c), sha256(r.file()));
    assertTrue(r.bytesReused() >= 1 << 20, () -> "continued from its bytes: " + r);
    assertEquals(DownloadState.COMPLETED, d.state());
  }

  @Test
  void aMissingFileFailsAtOnce() throws Exception {
    server.respond("/gone", 404);
    Download d = braid.submit(request("/gone", dir.resolve("gone")).build());
    CompletionException e = assertThrows(CompletionException.class, () -> d.result().join());
    assertInstanceOf(HttpStatusException.class, e.getCause());
    assertEquals(DownloadState.FAILED, d.state());
    assertTrue(d.outageWait().isEmpty());
    assertEquals(1, server.requests().size(), "asked once");
  }

  @Test
  void pausingAWaitingDownloadEndsItsWait() throws Exception {
    // a wait of 10 s, which the pause ends: the pause lands in the wait however late the test sees it
    braid.close();
    braid = braid(QUICK.withFirstWait(Duration.ofSeconds(10)).withMaxWait(Duration.ofSeconds(10)));
    server.serve("/f.bin", Content.random(1 << 20, 37));
    server.goAway(Duration.ofSeconds(60));
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).build());
    Awaitility.await("the download waits for its next try").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
        .until(() -> d.outageWait().isPresent());
    d.pause();
    CompletionException e = assertThrows(CompletionException.class, () -> d.result().join());
    assertInstanceOf(DownloadPausedException.class, e.getCause());
    assertEquals(DownloadState.PAUSED, d.state());
    braid.close();
    braid = braid(QUICK);
    Download again = braid.download(d.id()).orElseThrow();
    assertEquals(DownloadState.PAUSED, again.state());
    assertTrue(again.outageWait().isEmpty(), "paused, it waits for nobody");
  }

  @Test
  void aWaitOutlivesItsBraidAndTheNextOneTriesAtTheStoredTime() throws Exception {
    Content c = Content.random(1 << 20, 38);
    server.serve("/f.bin", c);
    server.goAway(Duration.ofSeconds(3));
    braid.close();
    braid = braid(QUICK.withFirstWait(Duration.ofSeconds(2)));
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).build());
    Awaitility.await("the download waits for its next try").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
        .until(() -> d.outageWait().isPresent());
    Instant next = d.outageWait().orElseThrow().nextTry();
    braid.close();
    braid = braid(QUICK);
    Download found = braid.download(d.id()).orElseThrow();
    assertEquals(next, found.outageWait().orElseThrow().nextTry(), "the next try is kept in the store");
    Awaitility.await("the new Braid's queue runs it once the server is back").atMost(Duration.ofSeconds(20)).until(() -> found.state() == DownloadState.COMPLETED);
    assertEquals(sha256(c), sha256(dir.resolve("f.bin")));
  }

}
