package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code braid daemon} with a 64 MiB heap under issue 36's flood: hundreds of raw
 * connections that send a request head declaring a 1 MiB body and then nothing, or half a head.
 * Before, each declared body was allocated whole (500 MiB asked of 64): the daemon answered
 * nothing and could die. Now a client with the secret is answered within seconds while they are
 * held, the download started before them completes byte-identical, and SIGTERM ends it within 5 s.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DaemonFloodTest {
  private static final int STALLED = 500;

  @TempDir Path work;

  @Test
  void underAFloodOfStalledConnectionsCallsAreAnsweredDownloadsGoOnAndSigtermEndsIt() throws Exception {
    Content content = Content.random(8L << 20, 36);
    Path downloads = Files.createDirectories(work.resolve("downloads"));
    List<Socket> flood = new ArrayList<>();
    try (TestServer server = TestServer.start();
        RpcDaemon daemon = RpcDaemon.start(work, List.of("-Xmx64m"), work.resolve("state.db").toString(), downloads,
            "s3cret")) {
      // 4 connections at 384 KiB/s: about 5 s, so the flood lands while it runs
      server.serve("/big.bin", content).etag("\"big\"").rateLimitPerConnection(384 << 10);
      server.serve("/slow.bin", content).etag("\"slow\"").rateLimitPerConnection(64 << 10);
      String gid = daemon.call("aria2.addUri", List.of(server.url("/big.bin")), Map.of("out", "big.bin", "split", "4"))
          .asText();
      for (int i = 0; i < STALLED; i++) {
        flood.add(stalled(daemon.port, i % 2 == 0
            ? "POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1048576\r\n\r\n"
            : "POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-"));
      }
      long t0 = System.nanoTime();
      JsonNode version = daemon.call("aria2.getVersion");
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertTrue(version.has("version"), version::toString);
      assertTrue(seconds < 5, "answered in " + seconds + " s under the flood");
      assertEquals("active", daemon.call("aria2.tellStatus", gid, List.of("status")).get("status").asText(),
          "the download was still running under the flood");
      JsonNode done = daemon.awaitStatus(gid, s -> s.get("status").asText().equals("complete"), Duration.ofSeconds(40));
      assertEquals(Long.toString(content.size()), done.get("completedLength").asText());

      daemon.call("aria2.addUri", List.of(server.url("/slow.bin")), Map.of("out", "slow.bin"));
      long s0 = System.nanoTime();
      CliProcess.Result stopped = daemon.process.terminate();
      double stopping = (System.nanoTime() - s0) / 1e9;
      stopped.assertExit(ExitCode.OK);
      assertTrue(stopping < 5, "SIGTERM under the flood with a download running took " + stopping + " s");
      assertFalse(stopped.stderr().contains("OutOfMemoryError"), stopped::describe);
    } finally {
      for (Socket s : flood) {
        s.close();
      }
    }
    assertEquals(content.sha256Hex(), CliTestSupport.sha256Hex(downloads.resolve("big.bin")), "byte-identical");
  }

  /** A connection that has sent {@code text} and then nothing. */
  private static Socket stalled(int port, String text) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    OutputStream out = s.getOutputStream();
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return s;
  }
}
