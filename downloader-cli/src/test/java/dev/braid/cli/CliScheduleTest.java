package dev.braid.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.core.RunWindow;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's run windows from its command line, changed over the RPC while it runs. */
class CliScheduleTest {
  @TempDir Path work;
  private TestServer server;

  @BeforeEach
  void start() throws java.io.IOException {
    server = TestServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void outsideItsWindowTheDaemonStartsNothingUntilTheRpcOpensIt() throws Exception {
    Content c = Content.random(256 * 1024, 51);
    server.serve("/f.bin", c);
    // a window that begins two hours from now (the daemon reads the same local time): closed now
    DateTimeFormatter hm = DateTimeFormatter.ofPattern("HH:mm");
    LocalTime now = LocalTime.now();
    String window = now.plusHours(2).format(hm) + "-" + now.plusHours(3).format(hm);
    Path dir = Files.createDirectories(work.resolve("dl"));
    try (RpcDaemon daemon = RpcDaemon.start(work, work.resolve("state.db"), dir, "k", "--run-window", window)) {
      String gid = daemon.call("aria2.addUri", List.of(server.url("/f.bin")), Map.of("out", "f.bin")).asText();
      // three turns of the queue's loop: it stays waiting, and no request reaches the server
      await("it stays waiting").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
          .until(() -> daemon.call("aria2.tellStatus", gid, List.of("status")).get("status").asText().equals("waiting"));
      assertEquals(0, server.requests().size());
      // the daemon answers in the canonical form, where a window ending at midnight ends at 24:00
      assertEquals(RunWindow.parse(window).toString(), daemon.call("aria2.getGlobalOption").get("braid-run-window").asText());
      daemon.call("aria2.changeGlobalOption", Map.of("braid-run-window", ""));
      JsonNode s = daemon.awaitStatus(gid, n -> n.get("status").asText().equals("complete"), Duration.ofSeconds(30));
      assertEquals("complete", s.get("status").asText(), s::toString);
      assertEquals(c.sha256Hex(), CliTestSupport.sha256Hex(dir.resolve("f.bin")));
    }
  }

  @Test
  void aBadWindowIsAUsageError() throws Exception {
    CliProcess.Result r = CliProcess.run(work, "daemon", "--state-db", work.resolve("state.db").toString(),
        "--rpc-listen-port", "0", "--run-window", "Mon-Fry 01:00-02:00").assertExit(ExitCode.USAGE);
    assertTrue(r.stderr().contains("--run-window") && r.stderr().contains("'Fry' is not a day"), r.stderr());
  }
}
