package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.Socks5Proxy;
import dev.braid.testserver.TestCertificate;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An https download over several connections through a real SOCKS5 relay on loopback. */
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
}
