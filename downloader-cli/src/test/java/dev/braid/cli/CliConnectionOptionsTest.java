package dev.braid.cli;

import static dev.braid.cli.CliTestSupport.sha256Hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.ConnectProxy;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.Socks5Proxy;
import dev.braid.testserver.TestServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Headers, credentials, --insecure, --deadline and the --debug metrics, as the command line sees them. */
class CliConnectionOptionsTest {
  private static final String SECRET = "s3cr3t-t0ken";

  @TempDir Path work;

  @Test
  void credentialsGoToTheirHostOnlyAndAreNeverPrintedEvenWithDebug() throws Exception {
    Content content = Content.random(3 << 20, 5);
    try (TestServer origin = TestServer.start(); TestServer other = TestServer.start()) {
      other.serve("/f", content).etag("\"o\"");
      origin.redirect("/f", other.url("/f"), 302);
      origin.redirect("/missing", "/nothing-here", 302);
      Result ok = CliProcess.run(work, "get", origin.url("/f"), "-o", "f.bin", "--debug", "--bearer", SECRET,
          "--header", "Cookie: id=" + SECRET, "-H", "X-Trace: 1", "--user-agent", "tester/2").assertExit(0);
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("f.bin")), ok.describe());
      RequestRecord first = origin.requests().get(0);
      assertEquals("Bearer " + SECRET, first.header("Authorization"));
      assertEquals("id=" + SECRET, first.header("Cookie"));
      assertEquals("1", first.header("X-Trace"));
      for (RequestRecord r : other.requests()) {
        assertNull(r.header("Authorization"), r.toString());
        assertNull(r.header("Cookie"), r.toString());
        assertEquals("tester/2", r.header("User-Agent"));
      }
      assertTrue(ok.stderr().contains("braid: dns") && ok.stderr().contains("reuse"), "metrics at the end\n" + ok.describe());
      assertFalse(ok.stderr().contains(SECRET), ok.describe());

      Result failed = CliProcess.run(work, "get", origin.url("/missing"), "-o", "m.bin", "--debug", "--user",
          "alice:" + SECRET, "--bearer", SECRET).assertExit(4);
      assertFalse(failed.stderr().contains(SECRET) || failed.stdout().contains(SECRET), failed.describe());
      assertFalse(failed.stderr().contains("alice:"), failed.describe());
    }
  }

  @Test
  void debugPrintsAMirrorLeftOutAsANoteNotAsAConnectionChange() throws Exception {
    Content content = Content.random(2 << 20, 13);
    try (TestServer server = TestServer.start(); TestServer mirror = TestServer.start()) {
      server.serve("/f", content).etag("\"m\"");
      mirror.serve("/other", Content.random((2 << 20) + 1, 13)).etag("\"m\"");
      Result run = CliProcess.run(work, "get", server.url("/f"), "-o", "f.bin", "--debug",
          "--mirror", mirror.url("/other")).assertExit(0);
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("f.bin")), run.describe());
      String note = run.stderr().lines().filter(l -> l.contains(mirror.url("/other") + " left out")).findFirst()
          .orElseThrow(() -> new AssertionError("the mirror's note\n" + run.describe()));
      assertTrue(note.matches("braid: \\d+\\.\\ds mirror .*"), "a plain, timed note: " + note);
      assertFalse(run.stderr().contains("connections 0 -> 0"), run.describe());
      assertTrue(run.stderr().contains("braid: dns"), "the metrics still follow\n" + run.describe());
    }
  }

  @Test
  void aDownloadThroughASocks5ProxyCompletesAndTheRelayCarriedIt() throws Exception {
    Content content = Content.random(2 << 20, 9);
    try (TestServer server = TestServer.start(); dev.braid.testserver.Socks5Proxy proxy = dev.braid.testserver.Socks5Proxy.start()) {
      server.serve("/f", content).etag("\"s\"");
      CliProcess.run(work, "get", server.url("/f"), "-o", "f.bin", "-q", "--proxy", proxy.url()).assertExit(0);
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("f.bin")));
      assertTrue(proxy.connections().contains("127.0.0.1:" + server.port()), proxy.connections().toString());
      assertEquals(server.connectionsAccepted(), proxy.connections().size(), "no connection went around the relay");
    }
  }

  @Test
  void proxyCredentialsGoToTheProxyOnlyAndARefusalExitsThreeWithoutPrintingThem() throws Exception {
    Content content = Content.random(2 << 20, 11);
    try (TestServer server = TestServer.start(); ConnectProxy http = ConnectProxy.requiring("alice", SECRET);
        Socks5Proxy socks = Socks5Proxy.requiring("alice", SECRET)) {
      server.serve("/f", content).etag("\"p\"");
      Result ok = CliProcess.run(work, "get", server.url("/f"), "-o", "f.bin", "--debug",
          "--proxy", http.url("alice:" + SECRET)).assertExit(0);
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("f.bin")), ok.describe());
      assertEquals(0, http.challenges(), "sent with the first request, not after a 407");
      for (RequestRecord r : server.requests()) {
        assertNull(r.header("Proxy-Authorization"), r.toString());
        assertNull(r.header("Authorization"), r.toString());
      }
      assertFalse(ok.stdout().contains(SECRET) || ok.stderr().contains(SECRET), ok.describe());

      Result refused = CliProcess.run(work, "get", server.url("/f"), "-o", "g.bin", "--debug",
          "--proxy", http.url("alice:wrong-" + SECRET)).assertExit(3);
      assertTrue(refused.stderr().contains("refused the user name and password"), refused.describe());
      Result json = CliProcess.run(work, "get", server.url("/f"), "-o", "h.bin", "--json",
          "--proxy", socks.url("alice:wrong-" + SECRET)).assertExit(3);
      assertTrue(json.stdout().contains("refused the user name and password"), json.describe());
      assertEquals(1, socks.refusals());
      Result list = CliProcess.run(work, "list", "--json").assertExit(0);
      for (Result r : List.of(refused, json, list)) {
        assertFalse(r.stdout().contains(SECRET) || r.stderr().contains(SECRET), r.describe());
      }
      // nor in the state database (and its journal), which never holds the proxy at all
      try (var files = Files.walk(work.resolve(".xdg-data"))) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          assertFalse(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(SECRET), f.toString());
        }
      }
    }
  }

  @Test
  void http2SendsTheRangesAsStreamsOfOneConnectionHttp11StaysHttp11AndAutoStartsOnHttp11() throws Exception {
    Content content = Content.random(6 << 20, 10);
    try (dev.braid.testserver.TestCertificate cert = dev.braid.testserver.TestCertificate.generate();
        dev.braid.testserver.H2TestServer server = dev.braid.testserver.H2TestServer.start(cert)) {
      server.serve("/f", content).etag("\"h\"");
      CliProcess.run(work, "get", server.url("/f"), "-o", "h2.bin", "-q", "-c", "4", "--http2",
          "--ca-cert", cert.pemFile().toString()).assertExit(0);
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("h2.bin")));
      assertEquals(1, server.connectionsAccepted());
      assertTrue(server.protocols().stream().allMatch("HTTP/2.0"::equals), server.protocols().toString());
      int before = server.protocols().size();
      CliProcess.run(work, "get", server.url("/f"), "-o", "h1.bin", "-q", "-c", "4", "--http1.1",
          "--ca-cert", cert.pemFile().toString()).assertExit(0);
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("h1.bin")));
      assertTrue(server.protocols().subList(before, server.protocols().size()).stream().allMatch("HTTP/1.1"::equals),
          server.protocols().toString());
      // a small file never takes part in a trial: on a host with nothing measured, HTTP/1.1
      before = server.protocols().size();
      CliProcess.run(work, "get", server.url("/f"), "-o", "auto.bin", "-q", "--http-auto",
          "--ca-cert", cert.pemFile().toString()).assertExit(0);
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("auto.bin")));
      assertTrue(server.protocols().subList(before, server.protocols().size()).stream().allMatch("HTTP/1.1"::equals),
          server.protocols().toString());
      CliProcess.run(work, "get", server.url("/f"), "-o", "x.bin", "--http2", "--http1.1").assertExit(2);
      CliProcess.run(work, "get", server.url("/f"), "-o", "x.bin", "--http-auto", "--http2").assertExit(2);
    }
  }

  @Test
  void metricsPortServesPrometheusWhileTheDownloadRuns() throws Exception {
    Content content = Content.random(4 << 20, 8);
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (TestServer server = TestServer.start()) {
      server.serve("/f", content).etag("\"m\"").rateLimitPerConnection(1 << 20);
      try (CliProcess p = CliProcess.start(work, "get", server.url("/f"), "-o", "f.bin", "-c", "2",
          "--metrics-port", Integer.toString(port))) {
        String scraped = null;
        while (scraped == null || !scraped.contains("braid_downloads{state=\"active\"} 1.0")) {
          assertTrue(p.isAlive(), "braid ended before a scrape saw its download");
          Thread.sleep(50);
          scraped = scrape(port);
        }
        Result r = p.await(CliProcess.DEFAULT_TIMEOUT).assertExit(0);
        assertTrue(r.stderr().contains("braid: metrics on http://127.0.0.1:" + port + "/metrics"), r.describe());
        assertEquals(content.sha256Hex(), sha256Hex(work.resolve("f.bin")));
      }
      assertNull(scrape(port), "the endpoint closes with the command");
      CliProcess.run(work, "get", server.url("/f"), "-o", "g.bin", "--metrics-port", "70000").assertExit(2);
    }
  }

  /** The text of a scrape, or null while nothing listens. */
  private static String scrape(int port) throws Exception {
    try {
      var response = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      return response.body();
    } catch (java.net.ConnectException e) {
      return null;
    }
  }

  @Test
  void insecureIsReportedEvenWhenQuietAndMalformedOptionsAreUsageErrors() throws Exception {
    try (TestServer server = TestServer.start()) {
      server.serve("/f", Content.random(1000, 1));
      Result r = CliProcess.run(work, "get", server.url("/f"), "-o", "f.bin", "-q", "--insecure").assertExit(0);
      assertTrue(r.stderr().contains("WARNING") && r.stderr().contains("NOT verified"), r.describe());
      Result badHeader = CliProcess.run(work, "get", server.url("/f"), "-o", "g.bin", "--header", "no colon").assertExit(2);
      assertTrue(badHeader.stderr().startsWith("braid: "), badHeader.describe());
      CliProcess.run(work, "get", server.url("/f"), "-o", "g.bin", "--user", SECRET).assertExit(2);
      CliProcess.run(work, "get", server.url("/f"), "-o", "g.bin", "--proxy", "ftp://proxy:1").assertExit(2);
    }
  }

  /**
   * Without --ca-cert, https goes by the JVM's own trust, which `braid get` sets up ahead of the
   * first connection when its URLs or list hold an https one: a trust store that holds the
   * server's certificate lets the download through; the JVM's usual CAs do not.
   */
  @Test
  void withoutCaCertTheJvmsTrustStoreDecides() throws Exception {
    Content content = Content.random(300_000, 12);
    try (dev.braid.testserver.TestCertificate cert = dev.braid.testserver.TestCertificate.generate();
        TestServer server = TestServer.startTls(cert)) {
      server.serve("/f", content).etag("\"t\"");
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      try (InputStream in = Files.newInputStream(cert.pemFile())) {
        trust.setCertificateEntry("test", CertificateFactory.getInstance("X.509").generateCertificate(in));
      }
      Path store = work.resolve("trust.p12");
      try (OutputStream out = Files.newOutputStream(store)) {
        trust.store(out, "changeit".toCharArray());
      }
      List<String> trusting = List.of("-Djavax.net.ssl.trustStore=" + store, "-Djavax.net.ssl.trustStoreType=PKCS12",
          "-Djavax.net.ssl.trustStorePassword=changeit");
      CliProcess.run(work, trusting, "get", server.url("/f"), "-o", "one.bin", "-q").assertExit(0);
      assertEquals(content.sha256Hex(), sha256Hex(work.resolve("one.bin")));
      int served = server.requests().size();
      Result refused = CliProcess.run(work, "get", server.url("/f"), "-o", "three.bin", "-q").assertExit(ExitCode.NETWORK);
      assertTrue(refused.stderr().contains("TLS"), refused.describe());
      assertEquals(served, server.requests().size(), "no request reached the untrusted server");
    }
  }

  @Test
  void aCaCertificateFileThatCannotBeUsedIsRefusedWithExitSixBeforeAnyRequest() throws Exception {
    try (TestServer server = TestServer.start()) {
      server.serve("/f", Content.random(1000, 3));
      Path garbage = Files.writeString(work.resolve("garbage.pem"), "not a certificate\n");
      Path empty = Files.createFile(work.resolve("empty.pem"));
      Result missing = CliProcess.run(work, "get", server.url("/f"), "-o", "f.bin", "--ca-cert",
          work.resolve("nope.pem").toString()).assertExit(6);
      assertTrue(missing.stderr().contains("nope.pem does not exist"), missing.describe());
      Result unusable = CliProcess.run(work, "get", server.url("/f"), "-o", "f.bin", "--ca-cert", garbage.toString())
          .assertExit(6);
      assertTrue(unusable.stderr().contains("cannot use the CA certificates in " + garbage), unusable.describe());
      Result none = CliProcess.run(work, "get", server.url("/f"), "-o", "f.bin", "--ca-cert", empty.toString()).assertExit(6);
      assertTrue(none.stderr().contains("holds no certificate"), none.describe());
      assertEquals(0, server.requests().size());
      assertFalse(Files.exists(work.resolve("f.bin")) || Files.exists(work.resolve("f.bin.part")));
    }
  }

  @Test
  void aDeadlineEndsASlowDownloadWithExitThreeAndKeepsItsBytes() throws Exception {
    try (TestServer server = TestServer.start()) {
      server.serve("/f", Content.random(4 << 20, 2)).etag("\"d\"").rateLimitPerConnection(512 << 10);
      Result r = CliProcess.run(work, "get", server.url("/f"), "-o", "f.bin", "-c", "1", "--deadline", "1").assertExit(3);
      assertTrue(r.stderr().contains("deadline"), r.describe());
      assertTrue(work.resolve("f.bin.part").toFile().length() > 0, r.describe());
    }
  }
}
