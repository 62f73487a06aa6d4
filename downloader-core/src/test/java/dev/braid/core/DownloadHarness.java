package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A real loopback server, a real store and a real folder per test. */
abstract class DownloadHarness {
  @TempDir Path dir;
  TestServer server;
  Braid braid;

  @BeforeEach
  void startServerAndBraid() throws Exception {
    server = TestServer.start();
    braid = newBraid();
  }

  @AfterEach
  void stop() {
    braid.close();
    server.close();
  }

  Braid newBraid() throws LocalFileException {
    return Braid.builder().stateDatabase(dir.resolve("state.db"))
        .readTimeout(Duration.ofSeconds(2)).connectTimeout(Duration.ofSeconds(2))
        .firstBackoff(Duration.ofMillis(20)).checkpointInterval(Duration.ofMillis(200)).build();
  }

  DownloadRequestBuilder request(String path, Path file) {
    return DownloadRequest.builder(server.url(path)).file(file);
  }

  DownloadResult get(DownloadRequestBuilder request) throws Exception {
    return await(braid.submit(request.build()));
  }

  static DownloadResult await(Download d) throws Exception {
    try {
      return d.result().join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  static String sha256(Path file) throws IOException {
    return Content.sha256Hex(file);
  }

  static String sha256(Content c) {
    return c.sha256Hex();
  }

  /** Waits (bounded) until the download has at least {@code bytes} on disk. */
  static void awaitProgress(Download d, long bytes) throws InterruptedException {
    // polled often: callers pause or measure at about this many bytes
    Awaitility.await("progress to " + bytes + " bytes").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10)).until(() -> {
      if (d.progress().done() < bytes && d.result().isDone()) {
        throw new AssertionError("no progress to " + bytes + " bytes: " + d.progress() + " " + d.result());
      }
      return d.progress().done() >= bytes;
    });
  }

  /** Downloads {@code path} into {@code out} on 4 connections and pauses it with {@code bytes} or more on disk. */
  void pausedAt(String path, Path out, long bytes) throws Exception {
    Download d = braid.submit(request(path, out).connections(4).build());
    awaitProgress(d, bytes);
    d.pause();
    CompletionException e = assertThrows(CompletionException.class, () -> d.result().join());
    assertTrue(e.getCause() instanceof DownloadPausedException, String.valueOf(e.getCause()));
  }
}
