package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.Socks5Proxy;
import dev.braid.testserver.TestCertificate;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Downloads over several connections through a real SOCKS5 relay on loopback, with and without its credentials. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocksProxyTest {
  @TempDir Path dir;

  @Test
  void everyConnectionOfAnHttpsDownloadGoesThroughTheRelay() throws Exception {
    Content c = Content.random(6 << 20, 32);
    try (TestCertificate cert = TestCertificate.generate(); TestServer server = TestServer.startTls(cert);
        Socks5Proxy proxy = Socks5Proxy.start()) {
      server.serve("/f", c).etag("\"s\"");
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(cert.pemFile())
          .proxy(proxy.url(), null).build()) {
        DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/f"))
            .file(dir.resolve("f.bin")).connections(3).build()));
        assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      }
      assertTrue(server.connectionsAccepted() >= 1);
      assertEquals(server.connectionsAccepted(), proxy.connections().size(), "every connection came through the relay");
      // names are resolved on this side: the relay is asked for the address
      assertTrue(proxy.connections().stream().allMatch(t -> t.equals("127.0.0.1:" + server.port())),
          proxy.connections().toString());
    }
  }

  @Test
  void credentialsAreSentToTheRelayByRfc1929AndNeverToTheServer() throws Exception {
    Content c = Content.random(6 << 20, 36);
    try (TestCertificate cert = TestCertificate.generate(); TestServer server = TestServer.startTls(cert);
        Socks5Proxy proxy = Socks5Proxy.requiring("bob", "s3cret:+/\u00e9")) {
      server.serve("/f", c).etag("\"u\"");
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(cert.pemFile())
          .proxyFromEnvironment(Map.of("ALL_PROXY", proxy.url("bob:s3cret%3A+%2F%C3%A9"))).build()) {
        DownloadResult r = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/f"))
            .file(dir.resolve("f.bin")).connections(3).build()));
        assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      }
      assertEquals(0, proxy.refusals());
      assertEquals(server.connectionsAccepted(), proxy.connections().size(), "every connection came through the relay");
      for (RequestRecord r : server.requests()) {
        assertNull(r.header("Proxy-Authorization"), r.toString());
        assertNull(r.header("Authorization"), r.toString());
      }
    }
  }

  @Test
  void aRefusedOrMissingAuthenticationFailsAtOnceWithoutRetrying() throws Exception {
    try (TestServer server = TestServer.start(); Socks5Proxy proxy = Socks5Proxy.requiring("bob", "right")) {
      server.serve("/f", Content.random(1 << 20, 37));
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).proxy(proxy.url("bob:wrong-one"), null)
          .build()) {
        ProxyAuthenticationException e = assertThrows(ProxyAuthenticationException.class, () -> DownloadHarness.await(
            braid.submit(DownloadRequest.builder(server.url("/f")).file(dir.resolve("f.bin")).build())));
        assertTrue(e.getMessage().contains("refused the user name and password"), e.getMessage());
        assertFalse(e.getMessage().contains("wrong-one"), e.getMessage());
      }
      assertEquals(1, proxy.refusals(), "one try: the same credentials would be refused again");
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).proxy(proxy.url(), null).build()) {
        ProxyAuthenticationException e = assertThrows(ProxyAuthenticationException.class, () -> DownloadHarness.await(
            braid.submit(DownloadRequest.builder(server.url("/f")).file(dir.resolve("g.bin")).build())));
        assertTrue(e.getMessage().contains("requires authentication"), e.getMessage());
      }
      assertEquals(2, proxy.refusals());
      assertEquals(0, server.connectionsAccepted(), "nothing reached the server");
    }
  }
}
