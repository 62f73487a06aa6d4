package dev.braid.rpc;

import dev.braid.core.Braid;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * An in-process {@link RpcServer} (secret "k", a wrong one answered after 300 ms) in front of a
 * real Braid that runs its queue one download at a time, and the loopback test server.
 */
abstract class RpcHarness {
  @TempDir Path work;
  TestServer server;
  Braid braid;
  RpcServer rpc;
  final RpcCalls calls = new RpcCalls(() -> rpc.port(), "k");

  @BeforeEach
  void start() throws Exception {
    server = TestServer.start();
    open();
  }

  /** Closes the RPC server and the engine, and opens both again on the same state database (the test server stays). */
  void restart() throws Exception {
    rpc.close();
    braid.close();
    open();
  }

  private void open() throws Exception {
    braid = Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work).runQueue(true)
        .maxActiveDownloads(1).build();
    rpc = RpcServer.start(braid, configure(RpcSettings.builder(work, "k").port(0)
        .unauthorizedDelay(Duration.ofMillis(300))).build(), () -> { });
  }

  /** The server's settings beyond the harness's: none unless a test class adds some. */
  RpcSettings.Builder configure(RpcSettings.Builder settings) {
    return settings;
  }

  @AfterEach
  void stop() {
    rpc.close();
    braid.close();
    server.close();
  }
}
