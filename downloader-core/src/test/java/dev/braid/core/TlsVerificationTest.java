package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificate verification is on by default: a self-signed server is refused at once, with the
 * cause named; trusting its certificate explicitly (a private CA) lets the download through.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsVerificationTest {
  @TempDir Path dir;

  @Test
  void anUntrustedCertificateFailsAtOnceAndAPrivateCaCanBeTrusted() throws Exception {
    Path keystore = dir.resolve("server.p12");
    Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-alias", "server", "-keyalg", "EC", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1",
        "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", "changeit")
        .redirectErrorStream(true).start();
    assertTrue(keytool.waitFor(30, TimeUnit.SECONDS) && keytool.exitValue() == 0,
        new String(keytool.getInputStream().readAllBytes()));
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      ks.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, "changeit".toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);

    HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    AtomicInteger served = new AtomicInteger();
    server.createContext("/f.bin", exchange -> {
      served.incrementAndGet();
      exchange.sendResponseHeaders(200, 3);
      exchange.getResponseBody().write(new byte[] {1, 2, 3});
      exchange.close();
    });
    server.start();
    try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).firstBackoff(Duration.ofMillis(200)).build()) {
      String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/f.bin";
      long start = System.nanoTime();
      NetworkException e = assertThrows(NetworkException.class,
          () -> DownloadHarness.await(braid.submit(DownloadRequest.builder(url).file(dir.resolve("f.bin")).build())));
      assertTrue(e.getMessage().contains("TLS"), e.getMessage());
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "not retried: the answer would not change");
      assertEquals(0, served.get(), "no request reached the untrusted server");
      assertFalse(Files.exists(dir.resolve("f.bin.part")));
    }
    try {
      Path pem = dir.resolve("server.pem");
      Process export = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
          "-exportcert", "-rfc", "-alias", "server", "-keystore", keystore.toString(), "-storepass", "changeit",
          "-file", pem.toString()).redirectErrorStream(true).start();
      assertTrue(export.waitFor(30, TimeUnit.SECONDS) && export.exitValue() == 0);
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(pem).build()) {
        String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/f.bin";
        DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(url).file(dir.resolve("f.bin")).build()));
        assertEquals(3, r.length());
        assertEquals(1, served.get());
      }
      LocalFileException bad = assertThrows(LocalFileException.class,
          () -> Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(dir.resolve("state.db")).build());
      assertTrue(bad.getMessage().contains("certificate"), bad.getMessage());
    } finally {
      server.stop(0);
    }
  }

  @Test
  void insecureAcceptsAnUntrustedCertificateOnlyWhenAskedFor() throws Exception {
    try (dev.braid.testserver.TestCertificate cert = dev.braid.testserver.TestCertificate.generate();
        dev.braid.testserver.TestServer server = dev.braid.testserver.TestServer.startTls(cert)) {
      server.serve("/f", dev.braid.testserver.Content.random(5000, 3));
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).maxRetries(0).build()) {
        assertThrows(NetworkException.class, () -> DownloadHarness.await(
            braid.submit(DownloadRequest.builder(server.url("/f")).file(dir.resolve("a.bin")).build())));
      }
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).insecure(true).build()) {
        DownloadResult r = DownloadHarness.await(
            braid.submit(DownloadRequest.builder(server.url("/f")).file(dir.resolve("b.bin")).build()));
        assertEquals(5000, r.length());
      }
      assertEquals(1, server.requests().size(), "only the insecure client got as far as a request");
    }
  }
}
