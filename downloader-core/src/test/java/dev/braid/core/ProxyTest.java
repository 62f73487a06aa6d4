package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.ConnectProxy;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestCertificate;
import dev.braid.testserver.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Downloads through a real HTTP proxy on loopback, set explicitly or by the usual variables: CONNECT
 * tunnels for https, absolute-form requests for http, with and without the proxy's credentials.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyTest {
  /** A password with characters that must be percent-encoded in a URL, and one beyond ASCII. */
  private static final String PASSWORD = "p@ss:w\u00f6rd";
  private static final String ENCODED = "alice:p%40ss%3Aw%C3%B6rd";
  private static final String BASIC = "Basic " + Base64.getEncoder()
      .encodeToString(("alice:" + PASSWORD).getBytes(StandardCharsets.UTF_8));

  @TempDir Path dir;

  @Test
  void httpsGoesThroughConnectTunnelsAndNoProxyBypassesThem() throws Exception {
    Content c = Content.random(6 << 20, 31);
    try (TestCertificate cert = TestCertificate.generate(); TestServer server = TestServer.startTls(cert);
        ConnectProxy proxy = ConnectProxy.start()) {
      server.serve("/f", c).etag("\"p\"");
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(cert.pemFile())
          .proxyFromEnvironment(Map.of("HTTPS_PROXY", proxy.url(), "http_proxy", "http://127.0.0.1:9")).build()) {
        DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/f"))
            .file(dir.resolve("f.bin")).connections(3).bearerToken("secret-tok").build()));
        assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      }
      assertEquals(server.connectionsAccepted(), proxy.tunnels().size(), "every connection came through the proxy");
      assertTrue(proxy.tunnels().stream().allMatch(t -> t.equals("127.0.0.1:" + server.port())), proxy.tunnels().toString());
      // the origin's credentials travel inside the tunnel, never in the clear to the proxy
      assertTrue(proxy.heads().stream().noneMatch(h -> h.contains("secret-tok")));
      int before = proxy.tunnels().size();
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(cert.pemFile())
          .proxy(proxy.url(), "localhost, 127.0.0.1").build()) {
        DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/f")).file(dir.resolve("g.bin")).build()));
      }
      assertEquals(before, proxy.tunnels().size(), "no_proxy: straight to the server");
    }
  }

  @Test
  void credentialsGoToTheProxyUpFrontOnEveryConnectionAndNeverToTheServer() throws Exception {
    Content c = Content.random(6 << 20, 33);
    try (TestCertificate cert = TestCertificate.generate(); TestServer tls = TestServer.startTls(cert);
        TestServer plain = TestServer.start(); ConnectProxy proxy = ConnectProxy.requiring("alice", PASSWORD)) {
      tls.serve("/f", c).etag("\"a\"");
      plain.serve("/f", c).etag("\"a\"");
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(cert.pemFile())
          .proxy(proxy.url(ENCODED), null).build()) {
        DownloadResult https = DownloadHarness.await(braid.submit(DownloadRequest.builder(tls.url("/f"))
            .file(dir.resolve("tls.bin")).connections(3).build()));
        assertEquals(c.sha256Hex(), Content.sha256Hex(https.file()));
        DownloadResult http = DownloadHarness.await(braid.submit(DownloadRequest.builder(plain.url("/f"))
            .file(dir.resolve("plain.bin")).connections(2).build()));
        assertEquals(c.sha256Hex(), Content.sha256Hex(http.file()));
      }
      assertEquals(tls.connectionsAccepted(), proxy.tunnels().size(), "every https connection was a tunnel");
      long forwarded = proxy.heads().stream().filter(h -> h.startsWith("GET http://")).count();
      assertEquals(plain.requests().size(), forwarded, "every http request went through the proxy");
      // preemptive: each CONNECT and each absolute-form request carried the credentials, none met a 407
      assertEquals(0, proxy.challenges());
      assertTrue(proxy.heads().stream().allMatch(h -> h.contains("Proxy-Authorization: " + BASIC + "\r\n")),
          proxy.heads().toString());
      for (TestServer server : List.of(tls, plain)) {
        for (RequestRecord r : server.requests()) {
          assertNull(r.header("Proxy-Authorization"), r.toString());
          assertNull(r.header("Authorization"), r.toString());
        }
      }
    }
  }

  @Test
  void wrongOrMissingCredentialsFailAtOnceWithoutReachingTheServer() throws Exception {
    try (TestCertificate cert = TestCertificate.generate(); TestServer tls = TestServer.startTls(cert);
        TestServer plain = TestServer.start(); ConnectProxy proxy = ConnectProxy.requiring("alice", PASSWORD)) {
      tls.serve("/f", Content.random(1 << 20, 35));
      plain.serve("/f", Content.random(1 << 20, 35));
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(cert.pemFile())
          .proxy(proxy.url("alice:not-the-password"), null).build()) {
        for (TestServer server : List.of(tls, plain)) {
          int before = proxy.challenges();
          ProxyAuthenticationException e = assertThrows(ProxyAuthenticationException.class, () -> DownloadHarness.await(
              braid.submit(DownloadRequest.builder(server.url("/f")).file(dir.resolve(server.port() + ".bin")).build())));
          assertTrue(e.getMessage().contains("refused the user name and password"), e.getMessage());
          assertFalse(e.getMessage().contains("not-the-password"), e.getMessage());
          // at most the preemptive try and HttpClient's one answer to the challenge: no retry loop on 407
          int refused = proxy.challenges() - before;
          assertTrue(refused >= 1 && refused <= 2, "407s: " + refused);
        }
      }
      // after the refused preemptive try HttpClient drops it, and the next request meets the challenge:
      // answered (once) with the credentials of the proxy's scope
      List<String> heads = proxy.heads();
      assertTrue(IntStream.range(1, heads.size()).anyMatch(i -> !heads.get(i - 1).contains("Proxy-Authorization")
          && heads.get(i).contains("Proxy-Authorization")), heads.toString());
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(cert.pemFile())
          .proxy(proxy.url(), null).build()) {
        int before = proxy.challenges();
        ProxyAuthenticationException e = assertThrows(ProxyAuthenticationException.class, () -> DownloadHarness.await(
            braid.submit(DownloadRequest.builder(tls.url("/f")).file(dir.resolve("none.bin")).build())));
        assertTrue(e.getMessage().contains("requires authentication"), e.getMessage());
        assertEquals(1, proxy.challenges() - before);
      }
      assertEquals(0, tls.connectionsAccepted() + plain.connectionsAccepted(), "nothing reached a server");
    }
  }

  @Test
  void aProxyThatCannotBeUsedIsRefusedUpFrontWithoutRepeatingItsPassword() {
    assertThrows(IllegalArgumentException.class, () -> Braid.builder().proxy("ftp://p:1", null));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Braid.builder().proxy("http://user:pw d@p:1", null));
    assertFalse(e.getMessage().contains("pw"), e.getMessage());
    assertTrue(e.getMessage().contains("p:1"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Braid.builder().proxy("http://user:pw%zz@p:1", null));
    assertFalse(e.getMessage().contains("pw"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Braid.builder().proxy("socks5://user:" + "x".repeat(256) + "@p:1", null));
  }
}
