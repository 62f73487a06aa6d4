package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.Resource;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 20 item 5: the slow-connection rule covers the download's first request too. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowFirstConnectionTest extends DownloadHarness {
  private static final long SLOW = 256L << 10;

  @Test
  void aConnectionSlowFromTheProbeOnIsReplacedInsteadOfKeepingItsRequest() throws Exception {
    Content c = Content.random(48L << 20, 11);
    // the connection that asks for byte 0 (the probe's, streamed by the first worker) crawls for
    // its whole life; every other one gets 8 MiB/s
    Resource res = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(8L << 20)
        .slowConnectionFromByteZero(SLOW);
    Path out = dir.resolve("f.bin");
    Download d = braid.submit(request("/f.bin", out).build());
    await(d);
    assertEquals(sha256(c), sha256(out));
    assertTrue(d.connectionChanges().stream().anyMatch(ch -> ch.reason().contains("slow connection replaced")),
        d.connectionChanges().toString());
    // the probe asked for 4 MiB; kept to the end (or stolen from in halves only) the slow
    // connection served 1.8 MiB of it. Replaced after its first judged window, it serves about
    // one window's worth: 4 s of its pace is room for a loaded machine, not for holding the tail
    long limit = 4 * SLOW;
    assertTrue(res.slowConnectionBytesSent() <= limit, "the slow connection served " + res.slowConnectionBytesSent()
        + " bytes; changes " + d.connectionChanges() + "; requests " + server.requests());
  }
}
