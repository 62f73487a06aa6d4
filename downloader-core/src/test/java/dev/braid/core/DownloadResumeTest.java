package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.state.Store;
import dev.braid.store.DownloadState;
import dev.braid.store.QueueEntry;
import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DownloadResumeTest extends DownloadHarness {
  private static final long SIZE = 16L << 20;

  /** Starts a throttled download and pauses it with about half of the file on disk. */
  private Path pausedHalfway(Resource res) throws Exception {
    Path out = dir.resolve("f.bin");
    pausedAt("/f.bin", out, SIZE / 2);
    assertTrue(Files.exists(out.resolveSibling("f.bin.part")));
    assertFalse(Files.exists(out));
    res.rateLimitPerConnection(0);
    return out;
  }

  @Test
  void pausedDownloadResumesWithoutFetchingItsBytesAgain() throws Exception {
    Content c = Content.random(SIZE, 1);
    Resource res = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(4L << 20);
    Path out = pausedHalfway(res);
    long sentBefore = server.bodyBytesSent();
    DownloadResult r = get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
    assertTrue(r.bytesReused() >= SIZE / 2, "reused " + r.bytesReused());
    long sentAfter = server.bodyBytesSent() - sentBefore;
    assertTrue(sentAfter < (SIZE - r.bytesReused()) + SIZE / 10, "second run fetched " + sentAfter);
    try (Store store = Store.open(dir.resolve("state.db"))) {
      assertEquals(DownloadState.COMPLETED, store.findByTarget(out).orElseThrow().status());
    }
  }

  @Test
  void bytesDamagedOnDiskWhilePausedAreFetchedAgainNotKept() throws Exception {
    Content c = Content.random(SIZE, 21);
    Resource res = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(4L << 20);
    Path out = pausedHalfway(res);
    Path part = out.resolveSibling("f.bin.part");
    long recordedSums;
    try (Store store = Store.open(dir.resolve("state.db"))) {
      recordedSums = store.blockSums(store.findByTarget(out).orElseThrow().id()).size();
    }
    assertTrue(recordedSums >= 1, "no finished block was summed at the pause");
    // what a torn write or a lying disk leaves: one finished byte flipped in the first block
    try (FileChannel ch = FileChannel.open(part, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, 1000);
      b.flip();
      byte flipped = (byte) ~b.get(0);
      ch.write(ByteBuffer.wrap(new byte[] {flipped}), 1000);
    }
    long sentBefore = server.bodyBytesSent();
    DownloadResult r = get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out), "a damaged byte must never reach the final file");
    assertTrue(server.bodyBytesSent() - sentBefore >= 1000, "the damaged block was not fetched again");
    assertTrue(r.bytesReused() < SIZE / 2 + (1L << 20), "reused " + r.bytesReused());
  }

  @Test
  void aFileChangedBetweenRunsIsDownloadedAgainNotSpliced() throws Exception {
    Content v1 = Content.random(SIZE, 2);
    Content v2 = Content.random(SIZE, 3);
    Resource res = server.serve("/f.bin", v1).etag("\"v1\"").rateLimitPerConnection(4L << 20);
    Path out = pausedHalfway(res);
    res.content(v2).etag("\"v2\"");
    Download d = braid.submit(request("/f.bin", out).connections(4).build());
    DownloadResult r = await(d);
    assertEquals(sha256(v2), sha256(out));
    assertEquals(0, r.bytesReused());
    assertTrue(d.restartReason().orElseThrow().contains("ETag"), d.restartReason().toString());
  }

  @Test
  void withoutRestartAChangedFileFailsAndKeepsTheBytes() throws Exception {
    Content v1 = Content.random(SIZE, 4);
    Resource res = server.serve("/f.bin", v1).etag("\"v1\"").rateLimitPerConnection(4L << 20);
    Path out = pausedHalfway(res);
    Path part = out.resolveSibling("f.bin.part");
    byte[] before = Files.readAllBytes(part);
    res.content(Content.random(SIZE, 5)).etag("\"v2\"");
    RemoteChangedException e = assertThrows(RemoteChangedException.class,
        () -> get(request("/f.bin", out).connections(4).restartIfChanged(false)));
    assertTrue(e.getMessage().contains("ETag"), e.getMessage());
    assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(part)), "the part file is untouched");
  }

  @Test
  void sameSizeAndEtagButNewLastModifiedIsAChange() throws Exception {
    Content v1 = Content.random(SIZE, 6);
    Resource res = server.serve("/f.bin", v1).etag("\"same\"").lastModified(java.time.Instant.parse("2026-01-01T00:00:00Z"))
        .rateLimitPerConnection(4L << 20);
    Path out = pausedHalfway(res);
    Content v2 = Content.random(SIZE, 7);
    res.content(v2).lastModified(java.time.Instant.parse("2026-02-01T00:00:00Z"));
    DownloadResult r = get(request("/f.bin", out).connections(4));
    assertEquals(sha256(v2), sha256(out));
    assertEquals(0, r.bytesReused());
  }

  @Test
  void withoutAnyValidatorNothingIsReused() throws Exception {
    Content c = Content.random(SIZE, 8);
    Resource res = server.serve("/f.bin", c).rateLimitPerConnection(4L << 20);
    Path out = pausedHalfway(res);
    DownloadResult r = get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
    assertEquals(0, r.bytesReused(), "no ETag or Last-Modified: unchanged bytes cannot be proven");
  }

  @Test
  void aWeakEtagBetweenRunsProvesNothingSoTheDownloadStartsOver() throws Exception {
    Content c = Content.random(SIZE, 12);
    // a weak ETag says "equivalent", not "byte-identical": ranges cannot be combined on it
    Resource res = server.serve("/f.bin", c).etag("W/\"v1\"").rateLimitPerConnection(4L << 20);
    Path out = pausedHalfway(res);
    server.clearRequests();
    DownloadResult r = get(request("/f.bin", out).connections(4));
    assertEquals(sha256(c), sha256(out));
    assertEquals(0, r.bytesReused(), "a weak ETag must not carry bytes over");
    assertTrue(server.requests().stream().allMatch(q -> q.ifRange() == null || !q.ifRange().startsWith("W/")),
        "a weak ETag is never an If-Range validator");
  }

  @Test
  void anExistingTargetIsRefusedUnlessOverwriteIsAsked() throws Exception {
    Content c = Content.random(1000, 9);
    server.serve("/f.bin", c).etag("\"v1\"");
    Path out = dir.resolve("f.bin");
    Files.writeString(out, "mine");
    LocalFileException e = assertThrows(LocalFileException.class, () -> get(request("/f.bin", out)));
    assertTrue(e.getMessage().contains("already exists"), e.getMessage());
    assertEquals("mine", Files.readString(out));
    get(request("/f.bin", out).overwrite(true));
    assertEquals(sha256(c), sha256(out));
  }

  /**
   * Downloads {@code c} to f.bin, then leaves what a power cut after the (unforced) final rename
   * may: the part file back under a record already marked complete. Returns the target.
   */
  private Path completedThenRenameUndone(Content c) throws Exception {
    server.serve("/f.bin", c).etag("\"v1\"");
    Path out = dir.resolve("f.bin");
    get(request("/f.bin", out));
    Files.move(out, out.resolveSibling("f.bin.part"));
    return out;
  }

  @Test
  void aRenameThatAPowerCutUndidIsCompletedByTheNextRunWithoutFetching() throws Exception {
    Content c = Content.random(3L << 20, 12);
    Path out = completedThenRenameUndone(c);
    DownloadResult r = get(request("/f.bin", out));
    assertEquals(sha256(c), sha256(out));
    assertFalse(Files.exists(out.resolveSibling("f.bin.part")));
    assertEquals(c.size(), r.bytesReused());
    assertEquals(0, r.bytesFetched());
    try (Store store = Store.open(dir.resolve("state.db"))) {
      assertEquals(DownloadState.COMPLETED, store.findByTarget(out).orElseThrow().status());
    }
  }

  @Test
  void aFileRenamedAndRecordedButNotYetHeardByTheQueueIsKeptByTheNextRun() throws Exception {
    Content c = Content.random(3L << 20, 14);
    server.serve("/f.bin", c).etag("\"v1\"");
    Path out = dir.resolve("f.bin");
    get(request("/f.bin", out));
    braid.close();
    // what a kill after the rename and the record's completion, before the queue recorded the end, leaves
    try (Store store = Store.open(dir.resolve("state.db"))) {
      QueueEntry e = store.queue().all().get(0);
      store.queue().setState(e.id(), DownloadState.QUEUED, null, null);
    }
    braid = newBraid();
    DownloadResult r = get(request("/f.bin", out));
    assertEquals(sha256(c), sha256(out));
    assertEquals(0, r.bytesFetched(), "the file on disk was whole and proven: nothing to fetch");
    assertEquals(c.size(), r.bytesReused());
  }

  @Test
  void aCompletePartFileWhoseBytesChangedSinceIsFetchedAgainNotRenamed() throws Exception {
    Content c = Content.random(3L << 20, 13);
    Path out = completedThenRenameUndone(c);
    try (FileChannel ch = FileChannel.open(out.resolveSibling("f.bin.part"), StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), (2L << 20) + 10);
    }
    DownloadResult r = get(request("/f.bin", out));
    assertEquals(sha256(c), sha256(out), "a changed byte must never reach the final file");
    assertTrue(r.bytesFetched() >= 1, "the changed block was not fetched again");
  }

  @Test
  void anUntrackedPartFileIsNotClobbered() throws Exception {
    server.serve("/f.bin", Content.random(1000, 10)).etag("\"v1\"");
    Path out = dir.resolve("f.bin");
    Files.writeString(out.resolveSibling("f.bin.part"), "someone's bytes");
    LocalFileException e = assertThrows(LocalFileException.class, () -> get(request("/f.bin", out)));
    assertTrue(e.getMessage().contains("no record"), e.getMessage());
    assertEquals("someone's bytes", Files.readString(out.resolveSibling("f.bin.part")));
  }

  @Test
  void aSecondDownloadOfTheSameFileIsRefusedWhileTheFirstRuns() throws Exception {
    Content c = Content.random(SIZE, 11);
    server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(2L << 20);
    Path out = dir.resolve("f.bin");
    Download first = braid.submit(request("/f.bin", out).connections(2).build());
    awaitProgress(first, 1);
    try (Braid other = Braid.builder().stateDatabase(dir.resolve("other.db")).build()) {
      LocalFileException e = assertThrows(LocalFileException.class,
          () -> await(other.submit(request("/f.bin", out).overwrite(true).build())));
      assertTrue(e.getMessage().contains("another"), e.getMessage());
    }
    first.pause();
  }
}
