package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.client.remote.DaemonLink;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get} relays its command line to a real daemon process ({@code STATE_DB.cli-socket});
 * without the relay it reaches the daemon on its local socket ({@code STATE_DB.rpc-socket}, the
 * user's only) without the JDK's HTTP stack, and on the WebSocket when that socket is gone too;
 * the daemon removes its sockets when it stops.
 */
class DaemonLocalSocketTest {
  @TempDir Path work;

  @Test
  void getUsesTheLocalSocketAndFallsBackToTheWebSocket() throws Exception {
    Path db = work.resolve("state.db");
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    Content one = Content.random(300_000, 11);
    try (TestServer server = TestServer.start()) {
      server.serve("/one.bin", one);
      Files.setPosixFilePermissions(Files.writeString(dev.braid.client.remote.SecretFile.fileOf(db), "socket-test-secret\n"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      RpcDaemon daemon = RpcDaemon.start(work, db, downloads, "socket-test-secret");
      Path socket = DaemonLink.socketFileOf(db);
      try {
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket, LinkOption.NOFOLLOW_LINKS)));
        Path relayed = work.resolve("relayed.log");
        CliProcess.Result r = CliProcess.run(work, List.of("-Xlog:class+load=info:file=" + relayed), "get", "--state-db",
            db.toString(), "-o", downloads.resolve("r.bin").toString(), server.url("/one.bin")).assertExit(ExitCode.OK)
            .assertNoStackTrace();
        assertEquals(one.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("r.bin")), r::describe);
        assertTrue(Files.readString(relayed).contains("dev.braid.cli.RelayClient "), "the command line went to the relay");
        assertFalse(Files.readString(relayed).contains("dev.braid.client.remote.LocalWire"), "the relayed client opened no RPC");

        // a daemon's relay gone (an older daemon has none): the command runs here, as the daemon's RPC client
        Files.delete(DaemonLink.relaySocketOf(db));
        Path local = work.resolve("local.log");
        r = CliProcess.run(work, List.of("-Xlog:class+load=info:file=" + local), "get", "--state-db", db.toString(),
            "-o", downloads.resolve("a.bin").toString(), server.url("/one.bin")).assertExit(ExitCode.OK).assertNoStackTrace();
        assertTrue(r.stderr().contains("saved " + downloads.resolve("a.bin")), r::describe);
        assertEquals(one.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("a.bin")));
        String loaded = Files.readString(local);
        assertTrue(loaded.contains("dev.braid.client.remote.LocalWire"), "the client used the local socket");
        assertFalse(loaded.contains("java.net.http.WebSocket"), "and did not start the JDK's WebSocket");

        Files.delete(socket);
        Path remote = work.resolve("remote.log");
        r = CliProcess.run(work, List.of("-Xlog:class+load=info:file=" + remote), "get", "--state-db", db.toString(),
            "-o", downloads.resolve("b.bin").toString(), server.url("/one.bin")).assertExit(ExitCode.OK).assertNoStackTrace();
        assertTrue(r.stderr().contains("saved " + downloads.resolve("b.bin")), r::describe);
        assertEquals(one.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("b.bin")));
        assertTrue(Files.readString(remote).contains("java.net.http.WebSocket"), "without the socket: the WebSocket");
        assertFalse(Files.readString(remote).contains("org.sqlite"), "the download is still the daemon's work");
      } finally {
        daemon.process.terminate().assertExit(ExitCode.OK);
      }
    }
  }

  @Test
  void theDaemonRemovesItsSocketWhenItStops() throws Exception {
    Path db = work.resolve("state.db");
    Files.setPosixFilePermissions(Files.writeString(dev.braid.client.remote.SecretFile.fileOf(db), "socket-test-secret\n"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    RpcDaemon daemon = RpcDaemon.start(work, db, Files.createDirectories(work.resolve("d")), "socket-test-secret");
    Path socket = DaemonLink.socketFileOf(db);
    Path relay = DaemonLink.relaySocketOf(db);
    assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS), "the daemon serves its local socket");
    assertTrue(Files.exists(relay, LinkOption.NOFOLLOW_LINKS), "and its command relay");
    daemon.process.terminate().assertExit(ExitCode.OK);
    assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS), "and removes the socket when it stops");
    assertFalse(Files.exists(relay, LinkOption.NOFOLLOW_LINKS), "and the relay's");
  }
}
