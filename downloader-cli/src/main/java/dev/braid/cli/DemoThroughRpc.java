package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.rpc.RpcServer;
import dev.braid.rpc.RpcSettings;
import dev.braid.testserver.Content;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * {@code braid demo --through-rpc}: the demo's file once more, as {@code braid get} fetches it
 * when a daemon runs: an engine of its own on a scratch store runs its queue behind aria2's
 * JSON-RPC on a free loopback port, and {@link RemoteGet} adds and follows the download over the
 * WebSocket. In the class archive's training run this puts the client path (the JDK WebSocket,
 * the JSON reader) and the daemon's server in the archive beside the in-process engine.
 */
final class DemoThroughRpc {
  private DemoThroughRpc() {}

  /** Downloads {@code url} into {@code work} through the RPC and checks it against {@code expected}; the exit code. */
  static int fetch(Braid.Builder engine, String url, Path work, String expected, PrintStream out)
      throws DownloadException, IOException, InterruptedException {
    Path folder = Files.createDirectories(work.resolve("rpc"));
    byte[] token = new byte[16];
    new SecureRandom().nextBytes(token);
    String secret = HexFormat.of().formatHex(token);
    try (Braid braid = engine.stateDatabase(work.resolve("rpc.db")).downloadDirectory(folder).runQueue(true).build();
        RpcServer server = RpcServer.start(braid, RpcSettings.builder(folder, secret).port(0).build(), () -> { })) {
      out.println("  through the RPC on port " + server.port() + ":");
      DownloadRequest request = DownloadRequest.builder(url).file(folder.resolve("rpc.bin")).build();
      int code = new RemoteGet(new DaemonLink.Endpoint(server.port(), secret), out, false, false,
          java.time.Duration.ofSeconds(1)).run(List.of(request), true, false);
      if (code != ExitCode.OK) {
        return code;
      }
      if (!expected.equals(Content.sha256Hex(folder.resolve("rpc.bin")))) {
        throw new IllegalStateException("the copy fetched through the RPC differs from the served file");
      }
      return ExitCode.OK;
    }
  }
}
