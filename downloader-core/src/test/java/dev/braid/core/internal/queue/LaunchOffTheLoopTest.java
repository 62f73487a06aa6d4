package dev.braid.core.internal.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadRequest;
import dev.braid.store.DownloadState;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A download's start (its claim, a store write) runs on its own driver thread, not on the queue's
 * loop: one start that waits holds up only its own slot. On the loop, each start of a batch of
 * small files waited behind the download threads' store writes while every free slot waited for
 * it, and the batch went at the loop's pace.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LaunchOffTheLoopTest {
  @TempDir Path dir;

  @Test
  void aStartThatWaitsDoesNotHoldUpTheNextOne() throws Exception {
    try (TestServer server = TestServer.start();
        Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).maxActiveDownloads(1).build()) {
      // the only slot is held while the two others are queued behind it
      server.serve("/slot", Content.random(64 * 1024, 1)).stallAfter(1024, Duration.ofSeconds(30), 1);
      Download slot = braid.submit(DownloadRequest.builder(server.url("/slot")).directory(dir).connections(1).build());
      Awaitility.await("the first holds the slot").atMost(Duration.ofSeconds(10))
          .until(() -> slot.state() == DownloadState.ACTIVE);
      server.serve("/a", Content.random(1000, 2));
      server.serve("/b", Content.random(2000, 3));
      QueuedDownload a = (QueuedDownload) braid.submit(DownloadRequest.builder(server.url("/a")).directory(dir).build());
      Download b = braid.submit(DownloadRequest.builder(server.url("/b")).directory(dir).build());
      // a's start is held up (as by a store write that waits): its lifecycle lock, which a start takes
      CountDownLatch holding = new CountDownLatch(1);
      CountDownLatch letGo = new CountDownLatch(1);
      Thread holder = new Thread(() -> {
        synchronized (a.lifecycle) {
          holding.countDown();
          try {
            letGo.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }, "test-holds-a");
      holder.start();
      holding.await();
      try {
        // two slots free: a is offered first (submission order), then b
        braid.maxActiveDownloads(3);
        assertEquals(2000, Files.size(b.result().get(20, TimeUnit.SECONDS).file()), "b ran while a's start waited");
        assertFalse(a.result().isDone(), "a's start still waits");
      } finally {
        letGo.countDown();
        holder.join();
      }
      assertEquals(1000, Files.size(a.result().get(20, TimeUnit.SECONDS).file()), "a ran once its start could go on");
      slot.cancel();
    }
  }
}
