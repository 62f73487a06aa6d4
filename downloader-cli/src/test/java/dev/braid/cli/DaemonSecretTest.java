package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code braid daemon} and its secret: a secret file others may read stops it (exit 6,
 * with the command that fixes it) and its clients; a short secret is warned of; guessers on one
 * address get ten checks a second however they send, while another address is served.
 */
class DaemonSecretTest {
  @TempDir Path work;

  private Path secretFile(Path db, String secret, String mode) throws Exception {
    Files.createDirectories(db.getParent());
    Path file = db.resolveSibling("state.db.rpc-secret");
    Files.writeString(file, secret + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    return file;
  }

  @Test
  void aSecretFileOthersMayReadStopsTheDaemon() throws Exception {
    Path db = work.resolve("state/state.db");
    Path file = secretFile(db, "123", "rw-r--r--");
    CliProcess.run(work, "daemon", "--state-db", db.toString(), "-d", work.toString(), "--rpc-listen-port", "0")
        .assertExit(ExitCode.LOCAL_IO).assertNoStackTrace().assertOneErrorLine("other users", "chmod 600 " + file);
  }

  @Test
  void guessesAreTenASecondPerAddressAndAShortSecretIsWarnedOf() throws Exception {
    Path db = work.resolve("state/state.db");
    Path file = secretFile(db, "123", "rw-------");
    try (RpcDaemon daemon = RpcDaemon.start(work, db, work, null)) {
      assertTrue(daemon.process.stderrSoFar().contains("WARNING: the RPC secret in " + file + " has 3 characters"),
          daemon.process.stderrSoFar());

      // four clients post batches of 500 wrong secrets for three seconds; each answer waits the second's delay
      ExecutorService guessers = Executors.newFixedThreadPool(4);
      long t0 = System.nanoTime();
      long until = t0 + Duration.ofSeconds(3).toNanos();
      List<Future<long[]>> counts = new ArrayList<>();
      for (int g = 0; g < 4; g++) {
        counts.add(guessers.submit(() -> {
          long[] checkedAndSent = new long[2];
          while (System.nanoTime() < until) {
            ArrayNode batch = RpcDaemon.JSON.createArrayNode();
            for (int i = 0; i < 500; i++) {
              batch.addObject().put("jsonrpc", "2.0").put("id", i).put("method", "aria2.getVersion").putArray("params")
                  .add("token:" + i);
            }
            for (JsonNode a : daemon.post(batch.toString()).body()) {
              checkedAndSent[0] += a.get("error").get("message").asText().equals("Unauthorized") ? 1 : 0;
            }
            checkedAndSent[1] += 500;
          }
          return checkedAndSent;
        }));
      }
      // meanwhile this address's own right secret is refused unchecked (its answer would tell a guesser it won) ...
      String right = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"aria2.getVersion\",\"params\":[\"token:123\"]}";
      JsonNode mine = daemon.post(right).body();
      while (mine.has("result") && System.nanoTime() < until) {
        // the guessers' first batch is not in yet
        mine = daemon.post(right).body();
      }
      assertTrue(mine.path("error").path("message").asText().startsWith("Unauthorized: too many wrong secrets"), mine::toString);
      // ... and a client on another address, with the secret, is answered at once
      assertTrue(System.nanoTime() < until, "still guessing");
      long asked = System.nanoTime();
      JsonNode other = postFrom("127.0.0.2", daemon.port, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"aria2.getVersion\","
          + "\"params\":[\"token:123\"]}");
      double answeredIn = (System.nanoTime() - asked) / 1e9;
      assertTrue(other.get("result").has("version"), other::toString);
      assertTrue(answeredIn < 1, "another address waited " + answeredIn + " s");

      long checked = 0;
      long sent = 0;
      for (Future<long[]> f : counts) {
        checked += f.get()[0];
        sent += f.get()[1];
      }
      guessers.shutdown();
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertTrue(sent >= 2000, "the guessers sent " + sent);
      assertTrue(checked <= 10 * Math.ceil(seconds), checked + " of " + sent + " guesses checked in " + seconds + " s");
      System.out.printf("%d of %d wrong secrets checked in %.1f s%n", checked, sent, seconds);

      // the relay's client refuses the file once others may read it, as the daemon would
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
      CliProcess.run(work, "list", "--state-db", db.toString()).assertExit(ExitCode.LOCAL_IO)
          .assertOneErrorLine("chmod 600 " + file);
    }
  }

  /** One HTTP/1.1 POST from a socket bound to {@code source} (the JDK's client cannot pick its address). */
  static JsonNode postFrom(String source, int port, String body) throws Exception {
    byte[] json = body.getBytes(StandardCharsets.UTF_8);
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
      s.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 5000);
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(("POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + json.length
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(json);
      out.flush();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      s.getInputStream().transferTo(all);
      String response = all.toString(StandardCharsets.UTF_8);
      int head = response.indexOf("\r\n\r\n");
      assertFalse(head < 0, response);
      return RpcDaemon.JSON.readTree(response.substring(head + 4));
    }
  }
}
