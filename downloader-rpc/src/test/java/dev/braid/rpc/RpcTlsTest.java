package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.client.ClientException;
import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.RemoteClient;
import dev.braid.core.Braid;
import dev.braid.testserver.SelfSigned;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RPC over TLS: PEM certificates and keys in the forms openssl and certbot write (made by the
 * real openssl), refused with a reason when unusable; a real server answering JSON-RPC, its
 * WebSocket and the console over HTTPS only; the daemon's own client pinning its certificate.
 */
class RpcTlsTest {
  @TempDir static Path keys;
  private static SelfSigned rsa;
  private static SelfSigned ec;

  @TempDir Path work;

  @BeforeAll
  static void makeCertificates() throws Exception {
    new ProcessBuilder("bash", "../testenv/require-packages.sh", "openssl").inheritIO().start().waitFor(120, TimeUnit.SECONDS);
    rsa = SelfSigned.make(keys, "rsa", "rsa");
    ec = SelfSigned.make(keys, "ec", "ec");
  }

  private static String sha256(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      X509Certificate c = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(c.getEncoded()));
    }
  }

  @Test
  void keysInPkcs8Pkcs1AndSec1AreReadAndUnusableFilesAreRefusedWithTheirReason() throws Exception {
    for (SelfSigned s : List.of(rsa, ec)) {
      for (Path key : List.of(s.privateKey(), s.traditionalKey())) {
        assertEquals(sha256(s.certificate()), ServerCertificate.read(s.certificate(), key).sha256(), key.toString());
      }
    }
    assertTrue(Files.readString(rsa.traditionalKey()).contains("BEGIN RSA PRIVATE KEY"), "PKCS#1");
    assertTrue(Files.readString(ec.traditionalKey()).contains("BEGIN EC PRIVATE KEY"), "SEC 1");

    SelfSigned other = SelfSigned.make(work, "other", "ec");
    assertRefused(ec.certificate(), other.privateKey(), "is not the key of the certificate in " + ec.certificate());
    assertRefused(ec.certificate(), rsa.privateKey(), "cannot be read as the certificate's kind of key (EC)");
    assertRefused(ec.certificate(), ec.encryptedKey(false), "is encrypted");
    assertRefused(ec.certificate(), ec.encryptedKey(true), "is encrypted");
    assertRefused(ec.privateKey(), ec.privateKey(), "holds no PEM certificate");
    assertRefused(ec.certificate(), ec.certificate(), "holds no PEM private key");
    assertRefused(ec.certificate(), work.resolve("missing.key"), "cannot read " + work.resolve("missing.key"));
  }

  private static void assertRefused(Path chain, Path key, String why) {
    ServerCertificate.UnusableException e = assertThrows(ServerCertificate.UnusableException.class,
        () -> ServerCertificate.read(chain, key));
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void overTlsTheRpcItsSocketAndTheConsoleAnswerAndPlainHttpDoesNot() throws Exception {
    try (Braid braid = Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work).build();
        RpcServer rpc = RpcServer.start(braid, RpcSettings.builder(work, "k").port(0)
            .certificate(ServerCertificate.read(ec.certificate(), ec.traditionalKey())).build(), () -> { })) {
      assertEquals("https", rpc.scheme());
      String origin = "https://127.0.0.1:" + rpc.port();
      HttpClient client = ec.trustingClient();
      String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"aria2.getVersion\",\"params\":[\"token:k\"]}";
      HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(origin + "/jsonrpc"))
          .POST(HttpRequest.BodyPublishers.ofString(call)).build(), HttpResponse.BodyHandlers.ofString());
      JsonNode version = RpcCalls.JSON.readTree(answer.body());
      assertTrue(version.path("result").has("version"), answer.body());
      HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create(origin + "/")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, page.statusCode());
      assertTrue(page.body().contains("<label for=\"secret\">Secret</label>"), page.body());

      // the console's own page, served over https, may open its WebSocket: its origin is https://
      WebSocket ws = client.newWebSocketBuilder().header("Origin", origin)
          .buildAsync(URI.create("wss://127.0.0.1:" + rpc.port() + "/jsonrpc"), new WebSocket.Listener() { })
          .get(10, TimeUnit.SECONDS);
      ws.abort();

      HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      assertThrows(IOException.class, () -> plain.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + rpc.port() + "/jsonrpc")).timeout(Duration.ofSeconds(10))
          .POST(HttpRequest.BodyPublishers.ofString(call)).build(), HttpResponse.BodyHandlers.ofString()),
          "plain HTTP gets no answer from a TLS port");

      // the daemon's own client, on its port: it trusts the certificate the daemon announced, and no other
      String pin = sha256(ec.certificate());
      try (RemoteClient remote = RemoteClient.connect(new DaemonLink.Endpoint(rpc.port(), "k", null, List.of(), pin))) {
        assertEquals(0, remote.counts().values().stream().mapToLong(Long::longValue).sum());
      }
      ClientException refused = assertThrows(ClientException.class, () -> RemoteClient.connect(
          new DaemonLink.Endpoint(rpc.port(), "k", null, List.of(), sha256(rsa.certificate()))));
      assertEquals(ClientException.Reason.UNREACHABLE, refused.reason(), refused::getMessage);
    }
  }
}
