package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.time.FakeTicker;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The resolver behind the DNS cache is asked once per host per TTL, however many connections and downloads use it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DnsCacheTest {
  @TempDir Path dir;
  private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

  private InetAddress[] resolve(String host) throws UnknownHostException {
    asked.computeIfAbsent(host, h -> new AtomicInteger()).incrementAndGet();
    if (host.endsWith(".test")) {
      return new InetAddress[] {InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1})};
    }
    throw new UnknownHostException(host);
  }

  @Test
  void manyConnectionsAndDownloadsAskOncePerHostPerTtl() throws Exception {
    Content content = Content.random(32 << 20, 7);
    FakeTicker ticker = new FakeTicker();
    try (TestServer a = TestServer.start(); TestServer b = TestServer.start();
        Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).hostResolver(this::resolve)
            .dnsCacheTtl(Duration.ofSeconds(60)).ticker(ticker).build()) {
      // paced, so that the file does not finish on the probe's connection before the others open
      a.serve("/f", content).etag("\"1\"").rateLimitPerConnection(16 << 20);
      b.serve("/f", content).etag("\"1\"").rateLimitPerConnection(16 << 20);
      DownloadResult first = get(braid, "http://files.test:" + a.port() + "/f", "1.bin");
      assertTrue(a.connectionsAccepted() >= 4, "several connections: " + a.connectionsAccepted());
      assertEquals(1, asked.get("files.test").get(), "one look-up for " + a.connectionsAccepted() + " connections");
      assertEquals(1, first.metrics().dnsLookups());
      assertEquals(a.connectionsAccepted() - 1, first.metrics().dnsCacheHits());
      // another port of the same host: new connections, the same cached answer
      DownloadResult second = get(braid, "http://files.test:" + b.port() + "/f", "2.bin");
      assertTrue(b.connectionsAccepted() >= 4);
      assertEquals(1, asked.get("files.test").get());
      assertEquals(0, second.metrics().dnsLookups());
      // past the TTL on the engine's ticker: a loaded machine cannot outlast a TTL of a minute by itself
      ticker.advance(Duration.ofSeconds(61));
      try (TestServer c = TestServer.start()) {
        c.serve("/f", content).etag("\"1\"");
        get(braid, "http://files.test:" + c.port() + "/f", "3.bin");
        assertEquals(2, asked.get("files.test").get(), "asked again once the TTL is over");
      }
      // an unknown host fails as a network error and its failure is cached too
      for (int i = 0; i < 2; i++) {
        NetworkException e = org.junit.jupiter.api.Assertions.assertThrows(NetworkException.class,
            () -> get(braid, "http://nowhere.invalid/f", "x.bin"));
        assertTrue(e.getMessage().contains("nowhere.invalid"), e.getMessage());
      }
      assertEquals(1, asked.get("nowhere.invalid").get());
    }
  }

  private DownloadResult get(Braid braid, String url, String name) throws Exception {
    return DownloadHarness.await(braid.submit(DownloadRequest.builder(url).file(dir.resolve(name)).connections(4).build()));
  }
}
