package dev.braid.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Python's {@code http.server} ({@code python3 -m http.server}) on 127.0.0.1, serving a temporary
 * folder: no ranges, no ETag, a Last-Modified from the file's mtime, and each response streamed
 * from the file as it is on disk while it is sent.
 */
final class PythonServer implements AutoCloseable {
  private static final int START_ATTEMPTS = 3;

  private final ServerProcess process;
  private final Path root;
  private final int port;

  private PythonServer(Process process, Path root, int port) {
    this.process = new ServerProcess(process, root);
    this.root = root;
    this.port = port;
  }

  /** Installs python3 if needed (testenv/require-packages.sh) and starts the server. */
  static PythonServer start() throws IOException, InterruptedException {
    RequiredPackages.require("python3");
    Path root = Files.createTempDirectory("braid-python-");
    Path docs = Files.createDirectories(root.resolve("docs"));
    Path log = root.resolve("server.log");
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      int port = LoopbackPorts.free();
      Process p = new ProcessBuilder("python3", "-m", "http.server", Integer.toString(port), "--bind", "127.0.0.1",
          "--directory", docs.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      PythonServer server = new PythonServer(p, root, port);
      if (server.process.awaitReady(port)) {
        return server;
      }
      // most likely a port taken between LoopbackPorts.free() and the server's bind: another try
      server.process.stop();
    }
    String output = Files.readString(log);
    Documents.deleteTree(root);
    throw new IOException("python3 -m http.server did not start:\n" + output);
  }

  /** The folder served: a file written at {@code docs/NAME} is served at {@code /NAME}. */
  Path docs() {
    return root.resolve("docs");
  }

  /** {@code http://127.0.0.1:PORT/name}. */
  String http(String name) {
    return "http://127.0.0.1:" + port + "/" + name;
  }

  @Override
  public void close() throws IOException {
    process.close();
  }
}
