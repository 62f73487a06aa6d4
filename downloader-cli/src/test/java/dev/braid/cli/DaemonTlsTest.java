package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.RemoteClient;
import dev.braid.client.remote.SecretFile;
import dev.braid.client.remote.RpcNames;
import dev.braid.testserver.SelfSigned;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code braid daemon} open to the network: --rpc-listen-all only with TLS or an explicit
 * --rpc-insecure (warned of); over TLS with a certificate made by openssl, the secret and the keys
 * of {@code braid keys} work within their scopes, a revoked key stops at once, plain HTTP gets
 * nothing, and the daemon's own client and {@code braid console} reach it.
 */
class DaemonTlsTest {
  @TempDir static Path certificates;
  private static SelfSigned rsa;

  @TempDir Path work;

  @BeforeAll
  static void makeCertificate() throws Exception {
    new ProcessBuilder("bash", "../testenv/require-packages.sh", "openssl").inheritIO().start().waitFor(120, TimeUnit.SECONDS);
    rsa = SelfSigned.make(certificates, "daemon", "rsa");
  }

  private List<String> daemon(Path db, String... more) {
    List<String> args = new ArrayList<>(List.of("daemon", "--state-db", db.toString(), "-d", work.toString(),
        "--rpc-listen-port", "0"));
    args.addAll(List.of(more));
    return args;
  }

  @Test
  void listenAllNeedsTlsOrInsecureAndAnUnusableKeyStartsNothing() throws Exception {
    Path db = work.resolve("state.db");
    CliProcess.run(work, daemon(db, "--rpc-listen-all").toArray(String[]::new)).assertExit(ExitCode.USAGE)
        .assertNoStackTrace().assertOneErrorLine("--rpc-listen-all", "--rpc-certificate FILE --rpc-private-key FILE",
            "--rpc-insecure");
    Path notAKey = Files.writeString(work.resolve("not-a.key"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    CliProcess.run(work, daemon(db, "--rpc-listen-all", "--rpc-certificate", rsa.certificate().toString(),
        "--rpc-private-key", notAKey.toString()).toArray(String[]::new)).assertExit(ExitCode.USAGE).assertNoStackTrace()
        .assertOneErrorLine("the key file " + notAKey + " holds no PEM private key");
    assertFalse(Files.exists(db), "nothing started: not even the state database");

    try (RpcDaemon insecure = RpcDaemon.start(work, db, work, "s3cret-of-twenty-chars", "--rpc-listen-all", "--rpc-insecure")) {
      assertTrue(insecure.process.stderrSoFar().contains("braid: WARNING: --rpc-insecure: the RPC port " + insecure.port
          + " is open to the network over plain HTTP"), insecure.process.stderrSoFar());
      assertTrue(insecure.call("aria2.getVersion").has("version"));
    }
  }

  @Test
  void overTlsTheSecretAndEachKeyWorkWithinItsScopeUntilRevoked() throws Exception {
    Path db = work.resolve("state.db");
    // aria2's --rpc-secure spelling too; the key as older openssl writes it (PKCS#1)
    try (RpcDaemon daemon = RpcDaemon.start(work, db, work, null, "--rpc-listen-all", "--rpc-secure",
        "--rpc-certificate", rsa.certificate().toString(), "--rpc-private-key", rsa.traditionalKey().toString())) {
      HttpClient https = rsa.trustingClient();
      URI rpc = URI.create("https://127.0.0.1:" + daemon.port + "/jsonrpc");
      String secret = SecretFile.read(SecretFile.fileOf(db));
      assertTrue(call(https, rpc, secret, "aria2.getVersion").path("result").has("version"));
      assertThrows(IOException.class, () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + daemon.port + "/jsonrpc")).timeout(Duration.ofSeconds(10))
          .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()),
          "plain HTTP gets nothing from the daemon's TLS port");

      String dashboard = keys(db, "add", "--read-only", "--name", "dashboard").stdout().strip();
      String tool = keys(db, "add", "--name", "tool").stdout().strip();
      assertTrue(call(https, rpc, dashboard, "aria2.tellActive").path("result").isArray());
      JsonNode refused = call(https, rpc, dashboard, "aria2.addUri", List.of("https://example.invalid/x"));
      assertEquals(RpcNames.FORBIDDEN, refused.path("error").path("code").asInt(), refused::toString);
      JsonNode added = call(https, rpc, tool, "aria2.addUri", List.of("https://example.invalid/x"), Map.of("pause", "true"));
      assertTrue(added.path("result").isTextual(), added::toString);

      keys(db, "revoke", "dashboard");
      assertEquals("Unauthorized", call(https, rpc, dashboard, "aria2.tellActive").path("error").path("message").asText(),
          "revoked: refused at once by the running daemon");
      CliProcess.Result list = keys(db, "list");
      assertTrue(list.stdout().matches("(?s)NAME +SCOPE +CREATED +LAST USED\\ntool +full +\\S+ +\\S+\\n"), list.describe());
      assertFalse(list.stdout().contains(tool) || list.stdout().contains(dashboard), "never a key: " + list.describe());

      // the daemon's own client by TCP, as when its local socket cannot be used: it pins the announced certificate
      DaemonLink.Endpoint found = DaemonLink.find(db).orElseThrow();
      try (RemoteClient client = RemoteClient.connect(new DaemonLink.Endpoint(found.port(), found.secret(), null,
          found.folders(), found.certificate()))) {
        assertEquals(1L, client.counts().values().stream().mapToLong(Long::longValue).sum());
      }
      CliProcess.Result console = CliProcess.run(work, "console", "--state-db", db.toString(), "--browser", "false")
          .assertExit(ExitCode.OK);
      assertEquals("https://127.0.0.1:" + daemon.port + "/", console.stdout().strip());
    }
  }

  private CliProcess.Result keys(Path db, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("keys"));
    all.addAll(List.of(args));
    all.addAll(List.of("--state-db", db.toString()));
    return CliProcess.run(work, all.toArray(String[]::new)).assertExit(ExitCode.OK).assertNoStackTrace();
  }

  private static JsonNode call(HttpClient client, URI rpc, String token, String method, Object... params) throws Exception {
    List<Object> p = new ArrayList<>(List.of("token:" + token));
    p.addAll(List.of(params));
    String body = RpcDaemon.JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", method, "params", p));
    return RpcDaemon.JSON.readTree(client.send(HttpRequest.newBuilder(rpc).timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()).body());
  }
}
