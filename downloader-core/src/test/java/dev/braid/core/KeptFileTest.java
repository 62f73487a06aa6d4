package dev.braid.core;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** A completed download asked for again: its file on disk answers, checked against a checksum when one is given. */
class KeptFileTest extends DownloadHarness {
  private final Content content = Content.random(300_000, 41);
  private Checksum sum;
  private Path file;

  private byte[] bytes() {
    byte[] b = new byte[(int) content.size()];
    content.read(0, b, 0, b.length);
    return b;
  }

  private Download completed() throws Exception {
    server.serve("/f.bin", content);
    sum = Checksum.parse("sha-256=" + content.sha256Hex());
    file = dir.resolve("f.bin");
    Download d = braid.submit(request("/f.bin", file).build());
    await(d);
    server.clearRequests();
    return d;
  }

  @Test
  void aCompletedFileWithTheChecksumAskedForIsAnsweredWithoutAFetch() throws Exception {
    Download first = completed();
    Download again = braid.submit(request("/f.bin", file).checksum(sum).build());
    DownloadResult r = await(again);
    assertEquals(first.id(), again.id());
    assertEquals(0, r.bytesFetched());
    assertEquals(content.size(), r.bytesReused());
    assertEquals(DownloadState.COMPLETED, again.state());
    assertEquals(List.of(), server.requests(), "a whole, verified file was fetched again");
  }

  @Test
  void aCompletedFileThatNoLongerHasTheChecksumFailsAndIsKept() throws Exception {
    Download first = completed();
    // changed in place since it completed, its length kept: only its digest can tell
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {(byte) ~bytes()[1234]}), 1234);
    }
    byte[] changed = Files.readAllBytes(file);

    Download again = braid.submit(request("/f.bin", file).checksum(sum).build());
    IntegrityException e = assertThrows(IntegrityException.class, () -> await(again));
    assertTrue(e.getMessage().contains("does not have the sha-256 checksum asked for"), e.getMessage());
    assertEquals(first.id(), again.id());
    assertEquals(DownloadState.FAILED, again.state());
    assertArrayEquals(changed, Files.readAllBytes(file), "the file on disk was not kept as it was");
    assertEquals(List.of(), server.requests(), "nothing is fetched without --overwrite");

    // every view of the queue tells the same: another engine on the store sees the failure
    braid.close();
    braid = newBraid();
    Download seen = braid.download(first.id()).orElseThrow();
    assertEquals(DownloadState.FAILED, seen.state());
    assertEquals(Optional.of(e.getMessage()), seen.error());

    // asked again with the checksum the file has (a mistyped one corrected), it completes once more
    Checksum ofChanged = Checksum.parse("sha-256=" + sha256(file));
    Download corrected = braid.submit(request("/f.bin", file).checksum(ofChanged).build());
    assertEquals(0, await(corrected).bytesFetched());
    assertEquals(first.id(), corrected.id());
    assertEquals(List.of(), server.requests());
    braid.close();
    braid = newBraid();
    assertEquals(DownloadState.COMPLETED, braid.download(first.id()).orElseThrow().state(), "recorded completed again");

    // asked again with overwrite, it is fetched and verified
    DownloadResult fresh = await(braid.submit(request("/f.bin", file).checksum(sum).overwrite(true).build()));
    assertEquals(content.size(), fresh.length());
    assertArrayEquals(bytes(), Files.readAllBytes(file));
  }

  @Test
  void aCompletedFileAskedForWithoutAChecksumIsAnsweredByItsLength() throws Exception {
    Download first = completed();
    Download again = braid.submit(request("/f.bin", file).build());
    assertEquals(0, await(again).bytesFetched());
    assertEquals(first.id(), again.id());
    assertEquals(List.of(), server.requests());
  }

  @Test
  void aCheckOfALargeKeptFileStopsWhenBraidClosesAndLeavesTheEntryAsItWas() throws Exception {
    Content big = Content.random(256L << 20, 43);
    server.serve("/big.bin", big);
    Path out = dir.resolve("big.bin");
    Download first = braid.submit(request("/big.bin", out).build());
    await(first);
    // a digest the file does not have: a check left to run would fail the entry
    Download again = braid.submit(request("/big.bin", out).checksum(Checksum.parse("sha3-256=" + "0".repeat(64))).build());
    braid.close();
    assertTrue(again.result().isDone(), "close returned before the check ended");
    ExecutionException e = assertThrows(ExecutionException.class, () -> again.result().get());
    assertTrue(e.getCause() instanceof DownloadPausedException, String.valueOf(e.getCause()));
    braid = newBraid();
    assertEquals(DownloadState.COMPLETED, braid.download(first.id()).orElseThrow().state());
  }
}
