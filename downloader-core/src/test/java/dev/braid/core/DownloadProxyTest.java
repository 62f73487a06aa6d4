package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.rules.HostRule;
import dev.braid.core.rules.Rules;
import dev.braid.testserver.ConnectProxy;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.Socks5Proxy;
import dev.braid.testserver.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A download's own proxy ({@link DownloadRequestBuilder#proxy}) through real proxies on loopback:
 * it is that download's only, beats the engine's and a host rule's, keeps its connections apart in
 * the shared pool, and its credentials out of the state database.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DownloadProxyTest {
  private static final String PASSWORD = "p@ss:w\u00f6rd";
  private static final String ENCODED = "alice:p%40ss%3Aw%C3%B6rd";

  @TempDir Path dir;

  @Test
  void aSocksProxyOfOneDownloadCarriesItsConnectionsOnlyAndTheyAreNeverLentToAnother() throws Exception {
    Content a = Content.random(4 << 20, 41);
    Content b = Content.random(4 << 20, 42);
    try (TestServer server = TestServer.start(); Socks5Proxy socks = Socks5Proxy.start()) {
      server.serve("/a", a).etag("\"a\"");
      server.serve("/b", b).etag("\"b\"");
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).build()) {
        DownloadResult viaSocks = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/a"))
            .file(dir.resolve("a.bin")).connections(3).proxy(socks.url()).build()));
        assertEquals(a.sha256Hex(), Content.sha256Hex(viaSocks.file()));
        int relayed = socks.connections().size();
        assertTrue(relayed >= 1);
        assertEquals(server.connectionsAccepted(), relayed, "every connection of the first came through the relay");

        // the same server, directly: the relayed connections idle in the pool under the same route
        DownloadResult direct = DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/b"))
            .file(dir.resolve("b.bin")).connections(3).build()));
        assertEquals(b.sha256Hex(), Content.sha256Hex(direct.file()));
        assertEquals(relayed, socks.connections().size(), "the second opened nothing through the relay");
        List<RequestRecord> second = server.requests().stream().filter(r -> r.path().equals("/b")).toList();
        assertFalse(second.isEmpty());
        assertTrue(second.stream().allMatch(r -> r.connectionId() > relayed),
            "no request of the direct download went over a relayed connection: " + second);
      }
    }
  }

  @Test
  void aDownloadsProxyBeatsTheHostRulesAndDirectBeatsTheEnginesForThatDownloadOnly() throws Exception {
    Content c = Content.random(2 << 20, 43);
    try (TestServer server = TestServer.start(); ConnectProxy byRule = ConnectProxy.start();
        ConnectProxy own = ConnectProxy.requiring("alice", PASSWORD)) {
      for (String p : List.of("/own", "/rule", "/direct")) {
        server.serve(p, c).etag("\"c\"");
      }
      Rules rules = Rules.of(List.of(HostRule.builder("127.0.0.1").proxy(byRule.url()).build()), List.of());
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).hostRules(rules).build()) {
        Download mine = braid.submit(DownloadRequest.builder(server.url("/own")).file(dir.resolve("own.bin"))
            .connections(2).proxy(own.url(ENCODED)).build());
        DownloadHarness.await(mine);
        DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/rule")).file(dir.resolve("rule.bin"))
            .connections(2).build()));
        DownloadHarness.await(braid.submit(DownloadRequest.builder(server.url("/direct")).file(dir.resolve("direct.bin"))
            .connections(2).proxy(DownloadRequest.DIRECT).build()));
        // the handle names the proxy without its credentials
        assertEquals(own.url(), mine.proxy().orElseThrow());
      }
      // plain http through a proxy: each request is an absolute-form request the proxy sees
      assertEquals(requests(server, "/own"), through(own, "/own"), own.heads().toString());
      assertEquals(0, through(own, "/rule") + through(own, "/direct"));
      assertEquals(0, own.challenges(), "its credentials went to its proxy up front");
      assertEquals(requests(server, "/rule"), through(byRule, "/rule"), byRule.heads().toString());
      assertEquals(0, through(byRule, "/own") + through(byRule, "/direct"));
      assertTrue(requests(server, "/direct") > 0);
      // the password is in no file of the state database
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.filter(p -> p.getFileName().toString().startsWith("state.db")).toList()) {
          String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
          assertFalse(bytes.contains("p%40ss") || bytes.contains("alice"), f + " holds the proxy's credentials");
        }
      }
    }
  }

  @Test
  void theProxySurvivesARestartAndCanBeChangedWhileTheDownloadWaits() throws Exception {
    Content c = Content.random(2 << 20, 44);
    try (TestServer server = TestServer.start(); Socks5Proxy first = Socks5Proxy.start();
        Socks5Proxy second = Socks5Proxy.start()) {
      server.serve("/f", c).etag("\"f\"");
      server.serve("/g", c).etag("\"f\"");
      long f;
      long g;
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).build()) {
        f = braid.submitPaused(DownloadRequest.builder(server.url("/f")).file(dir.resolve("f.bin"))
            .proxy(first.url()).build()).id();
        g = braid.submitPaused(DownloadRequest.builder(server.url("/g")).file(dir.resolve("g.bin"))
            .proxy(first.url()).build()).id();
      }
      try (Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).build()) {
        Download kept = braid.download(f).orElseThrow();
        assertEquals(first.url(), kept.proxy().orElseThrow());
        Download changed = braid.download(g).orElseThrow();
        changed.proxy(second.url());
        assertEquals(second.url(), changed.proxy().orElseThrow());
        kept.resume();
        assertEquals(c.sha256Hex(), Content.sha256Hex(DownloadHarness.await(kept).file()));
        changed.resume();
        assertEquals(c.sha256Hex(), Content.sha256Hex(DownloadHarness.await(changed).file()));
        assertThrows(IllegalArgumentException.class, () -> changed.proxy("ftp://127.0.0.1:21"));
      }
      assertTrue(first.connections().size() >= 1);
      assertTrue(second.connections().size() >= 1);
      assertEquals(server.connectionsAccepted(), first.connections().size() + second.connections().size(),
          "every connection of both went through a relay");
    }
  }

  @Test
  void aBadProxyIsRefusedByTheBuilderWithoutRepeatingItsPassword() {
    DownloadRequestBuilder b = DownloadRequest.builder("http://127.0.0.1/f");
    IllegalArgumentException scheme = assertThrows(IllegalArgumentException.class, () -> b.proxy("ftp://127.0.0.1:21"));
    assertTrue(scheme.getMessage().contains("unsupported proxy scheme ftp"), scheme.getMessage());
    IllegalArgumentException host = assertThrows(IllegalArgumentException.class, () -> b.proxy("http://bob:hunter2@"));
    assertFalse(host.getMessage().contains("hunter2"), host.getMessage());
    assertEquals(DownloadRequest.DIRECT, b.proxy("DIRECT").buildUnchecked().proxy().orElseThrow());
    assertTrue(b.proxy(null).buildUnchecked().proxy().isEmpty());
  }

  /** How many requests for {@code path} the server answered. */
  private static long requests(TestServer server, String path) {
    return server.requests().stream().filter(r -> r.path().equals(path)).count();
  }

  /** How many absolute-form requests for {@code path} went through {@code proxy}. */
  private static long through(ConnectProxy proxy, String path) {
    return proxy.heads().stream().filter(h -> h.startsWith("GET http://") && h.split(" ", 3)[1].endsWith(path)).count();
  }
}
