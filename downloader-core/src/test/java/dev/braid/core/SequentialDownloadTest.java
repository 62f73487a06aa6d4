package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 38: a sequential download grows the part file's complete prefix steadily over several
 * connections: at every moment the bytes on disk are that prefix plus a window after it, never a
 * piece far ahead (an ordinary download sends its second connection to the middle of the file).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SequentialDownloadTest extends DownloadHarness {
  private static final int BLOCK = 64 << 10;
  /** The bytes compared at each end of a block. */
  private static final int PROBE = 256;
  /** The engine's window of work (24 MiB) plus one connection's request (an eighth of it on 4 connections), and a block of slack. */
  private static final long SPREAD = (24L << 20) + (3L << 20) + BLOCK;

  @Test
  void thePartFileIsAGrowingPrefixPlusAWindowAndSeveralConnectionsFetchIt() throws Exception {
    Content c = Content.random(48L << 20, 38);
    server.serve("/movie.bin", c).etag("\"v1\"").rateLimitPerConnection(12L << 20);
    Path out = dir.resolve("movie.bin");
    Path part = dir.resolve("movie.bin.part");
    Download d = braid.submit(request("/movie.bin", out).connections(4).sequential(true).build());
    List<long[]> samples = new ArrayList<>();
    while (!d.result().isDone()) {
      long[] s = sample(part, c);
      if (s != null && s[0] < c.size()) {
        samples.add(s);
      }
    }
    await(d);
    assertEquals(sha256(c), sha256(out));
    assertTrue(samples.stream().filter(s -> s[0] > 0).count() >= 3, "too few samples mid-way: " + samples.size());
    for (long[] s : samples) {
      assertTrue(s[1] - s[0] <= SPREAD, "bytes written at " + s[1] + " while the prefix ended at " + s[0]);
    }
    long connections = server.requests().stream().filter(r -> r.range() != null).map(RequestRecord::connectionId)
        .distinct().count();
    assertTrue(connections >= 3, "only " + connections + " connections fetched ranges");
  }

  /**
   * The part file read now, block by block against the content: {@code [end of the complete
   * prefix, end of the last block written]}; null before the part file is there. The last block
   * is looked for first, from the end: the prefix only grows while the file is read, so a spread
   * seen is never one the download did not have.
   */
  private static long[] sample(Path part, Content c) throws IOException {
    try (FileChannel ch = FileChannel.open(part)) {
      long last = 0;
      for (long at = (c.size() - 1) / BLOCK * BLOCK; at >= 0 && last == 0; at -= BLOCK) {
        if (written(ch, c, at)) {
          last = Math.min(c.size(), at + BLOCK);
        }
      }
      long prefix = 0;
      while (prefix < c.size() && written(ch, c, prefix)) {
        prefix = Math.min(c.size(), prefix + BLOCK);
      }
      return new long[] {prefix, last};
    } catch (NoSuchFileException notYetOrRenamed) {
      return null;
    }
  }

  /** Whether the block at {@code at} is on disk: its first and last bytes are the content's (a sparse file reads zeros). */
  private static boolean written(FileChannel ch, Content c, long at) throws IOException {
    int len = (int) Math.min(BLOCK, c.size() - at);
    return same(ch, c, at, PROBE) && same(ch, c, at + len - PROBE, PROBE);
  }

  private static boolean same(FileChannel ch, Content c, long at, int len) throws IOException {
    byte[] expected = new byte[len];
    c.read(at, expected, 0, len);
    ByteBuffer got = ByteBuffer.allocate(len);
    while (got.hasRemaining() && ch.read(got, at + got.position()) > 0) {
      // reads to the length asked: the part file is as long as the content from the start
    }
    return Arrays.equals(got.array(), expected);
  }
}
