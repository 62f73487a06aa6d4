package dev.braid.gui;

import dev.braid.core.Braid;
import dev.braid.core.DownloadRequest;
import java.nio.file.Path;

/**
 * Stands for {@code braid get} in another process: downloads one URL into a folder through its
 * own {@link Braid} on the given state database, and exits 0 once the file is complete.
 * Queue ownership is per process, so this must run in a JVM of its own.
 */
final class OtherProcess {
  private OtherProcess() {}

  public static void main(String[] args) throws Exception {
    try (Braid braid = Braid.builder().stateDatabase(Path.of(args[0])).build()) {
      braid.submit(DownloadRequest.builder(args[1]).directory(Path.of(args[2])).build()).result().join();
    }
  }

  /** Starts it with this JVM's java and class path; its output goes to {@code log}. */
  static Process start(Path db, String url, Path folder, Path log) throws java.io.IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), OtherProcess.class.getName(),
        db.toString(), url, folder.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }
}
