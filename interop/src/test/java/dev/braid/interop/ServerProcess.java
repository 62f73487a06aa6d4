package dev.braid.interop;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real server a test runs as a child process, with the folder it serves from: ready once its
 * ports accept connections, and stopped (SIGTERM, then SIGKILL after 10 s) with its folder deleted.
 */
final class ServerProcess implements AutoCloseable {
  private static final long READY_TIMEOUT_MILLIS = 15_000;

  private final Process process;
  private final Path root;

  ServerProcess(Process process, Path root) {
    this.process = process;
    this.root = root;
  }

  /** Waits until every one of {@code ports} accepts a connection; false if the server exited or the time ran out. */
  boolean awaitReady(int... ports) throws InterruptedException {
    long deadline = System.nanoTime() + READY_TIMEOUT_MILLIS * 1_000_000;
    while (System.nanoTime() < deadline && process.isAlive()) {
      boolean all = true;
      for (int port : ports) {
        all &= LoopbackPorts.accepts(port);
      }
      if (all) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  /** Stops the server and keeps its folder (for its logs, or another try). */
  void stop() throws InterruptedException {
    // SIGTERM: Apache's parent stops its children and removes its pid file
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Stops the server and deletes its folder. */
  @Override
  public void close() throws IOException {
    try {
      stop();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    Documents.deleteTree(root);
  }
}
