package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.ConnectProxy;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestCertificate;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An https download through a real CONNECT proxy on loopback, set explicitly or by the usual variables. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyTest {
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
  void aProxyThatCannotBeUsedIsRefusedUpFront() {
    assertThrows(IllegalArgumentException.class, () -> Braid.builder().proxy("ftp://p:1", null));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Braid.builder().proxy("http://user:pw@p:1", null));
    assertFalse(e.getMessage().contains("pw"), e.getMessage());
  }
}
