package dev.braid.cli;

import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Per test: a folder of its own, a real loopback server, and the state database the commands under test share. */
abstract class ServerAndStateDb {
  @TempDir Path work;
  TestServer server;
  Path db;

  @BeforeEach
  void startServer() throws IOException {
    server = TestServer.start();
    db = work.resolve("state.db");
  }

  @AfterEach
  void stopServer() {
    server.close();
  }
}
