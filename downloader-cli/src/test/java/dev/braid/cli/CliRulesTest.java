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
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules file as {@code braid get} and {@code braid rules} use it, against real servers: one
 * reached as {@code localhost} (the rule's host) and one as {@code 127.0.0.1} (another host).
 */
class CliRulesTest {
  @TempDir Path work;

  private Path rules(String extra) throws Exception {
    Path file = work.resolve("rules.toml");
    Files.writeString(file, """
        [hosts.localhost]
        connections = 3
        user-agent = "RuleAgent/1"
        headers = { X-Rule = "yes" }

        [categories.video]
        extensions = ["mp4"]
        folder = "%s"
        """.formatted(work.resolve("Video")) + extra);
    return file;
  }

  @Test
  void aHostsRuleReachesThatHostOnlyAndItsCategoryChoosesTheFolder() throws Exception {
    Path rules = rules("");
    Content clip = Content.random(6 << 20, 3);
    Content other = Content.random(1 << 20, 4);
    try (TestServer ruled = TestServer.start(); TestServer plain = TestServer.start()) {
      // slow enough per connection that the three pinned connections overlap
      ruled.serve("/clip.mp4", clip).etag("\"c\"").rateLimitPerConnection(4 << 20);
      plain.serve("/other.mp4", other).etag("\"o\"");
      Result r = CliProcess.run(work, "get", "-q", "--rules", rules.toString(), "--state-db", work.resolve("s.db").toString(),
          "http://localhost:" + ruled.port() + "/clip.mp4", plain.url("/other.mp4")).assertExit(0);
      assertEquals(clip.sha256Hex(), sha256Hex(work.resolve("Video/clip.mp4")), r.describe());
      // the category is by type, not host: 127.0.0.1's mp4 goes there too
      assertEquals(other.sha256Hex(), sha256Hex(work.resolve("Video/other.mp4")), r.describe());
      for (RequestRecord q : ruled.requests()) {
        assertEquals("yes", q.header("X-Rule"), q.toString());
        assertEquals("RuleAgent/1", q.header("User-Agent"), q.toString());
      }
      assertEquals(3, ruled.requests().stream().mapToInt(RequestRecord::connectionId).distinct().count(), r.describe());
      assertEquals(3, ruled.peakConcurrentConnections(), r.describe());
      for (RequestRecord q : plain.requests()) {
        assertNull(q.header("X-Rule"), q.toString());
        assertTrue(q.header("User-Agent").startsWith("Braid/"), q.toString());
      }
    }
  }

  @Test
  void optionsGivenOnTheCommandLineWinOverTheRules() throws Exception {
    Path rules = rules("");
    Content clip = Content.random(3 << 20, 5);
    try (TestServer server = TestServer.start()) {
      server.serve("/clip.mp4", clip).etag("\"c\"").rateLimitPerConnection(4 << 20);
      String url = "http://localhost:" + server.port() + "/clip.mp4";
      Result r = CliProcess.run(work, "get", "-q", "--rules", rules.toString(), "--state-db", work.resolve("s.db").toString(),
          "-c", "1", "-A", "Explicit/2", "-H", "X-Rule: cli", "-d", "mine", url).assertExit(0);
      assertEquals(clip.sha256Hex(), sha256Hex(work.resolve("mine/clip.mp4")), r.describe());
      assertFalse(Files.exists(work.resolve("Video")), r.describe());
      for (RequestRecord q : server.requests()) {
        assertEquals("cli", q.header("X-Rule"), q.toString());
        assertEquals("Explicit/2", q.header("User-Agent"), q.toString());
      }
      assertEquals(1, server.peakConcurrentConnections(), r.describe());

      // --no-rules: neither the rule's header nor its folder
      server.clearRequests();
      CliProcess.run(work, "get", "-q", "--no-rules", "--state-db", work.resolve("s2.db").toString(), "-o", "plain.mp4", url).assertExit(0);
      assertTrue(server.requests().stream().allMatch(q -> q.header("X-Rule") == null), server.requests().toString());
    }
  }

  @Test
  void aHostsProxyCarriesThatHostOnlyAndAnExplicitProxyWins() throws Exception {
    Content c = Content.random(1 << 20, 7);
    try (TestServer server = TestServer.start(); ConnectProxy byRule = ConnectProxy.requiring("alice", "pw");
        ConnectProxy explicit = ConnectProxy.start()) {
      server.serve("/f", c).etag("\"f\"");
      Path rules = work.resolve("proxy.toml");
      Files.writeString(rules, "[hosts.localhost]\nproxy = \"" + byRule.url("alice:pw") + "\"\n");
      String ruled = "http://localhost:" + server.port() + "/f";
      Result r = CliProcess.run(work, "get", "-q", "--rules", rules.toString(), "--state-db", work.resolve("s.db").toString(),
          "-o", "a.bin", ruled).assertExit(0);
      assertEquals(c.sha256Hex(), sha256Hex(work.resolve("a.bin")), r.describe());
      int carried = byRule.heads().size();
      assertTrue(carried > 0 && byRule.heads().stream().allMatch(h -> h.contains("localhost:" + server.port())),
          byRule.heads().toString());
      CliProcess.run(work, "get", "-q", "--rules", rules.toString(), "--state-db", work.resolve("s.db").toString(),
          "-o", "b.bin", server.url("/f")).assertExit(0);
      assertEquals(carried, byRule.heads().size(), "127.0.0.1 is not the rule's host: direct");
      CliProcess.run(work, "get", "-q", "--rules", rules.toString(), "--state-db", work.resolve("s.db").toString(),
          "-o", "c.bin", "--proxy", explicit.url(), ruled).assertExit(0);
      assertEquals(carried, byRule.heads().size(), "--proxy replaces the rules' proxies");
      assertTrue(!explicit.heads().isEmpty());
    }
  }

  @Test
  void theDefaultRulesFileIsReadFromTheXdgConfigFolder() throws Exception {
    Path config = work.resolve(".xdg-config/braid");
    Files.createDirectories(config);
    Files.writeString(config.resolve("rules.toml"), "[hosts.\"127.0.0.1\"]\nheaders = { X-Default = \"1\" }\n");
    Content c = Content.random(1 << 20, 6);
    try (TestServer server = TestServer.start()) {
      server.serve("/f", c).etag("\"f\"");
      CliProcess.run(work, "get", "-q", "--state-db", work.resolve("s.db").toString(), "-o", "f.bin", server.url("/f"))
          .assertExit(0);
      assertEquals("1", server.requests().get(0).header("X-Default"));
    }
    Result check = CliProcess.run(work, "rules", "http://127.0.0.1/x.iso").assertExit(0);
    assertTrue(check.stdout().contains(config.resolve("rules.toml") + ": 1 host rules, 0 categories"), check.describe());
    assertTrue(check.stdout().contains("headers: X-Default (values not shown)"), check.describe());
  }

  @Test
  void aMalformedRulesFileIsAUsageErrorNamingFileLineAndKey() throws Exception {
    Path rules = rules("\n[hosts.\"example.com\"]\nconections = 2\n");
    try (TestServer server = TestServer.start()) {
      server.serve("/f", Content.random(1024, 1));
      Result r = CliProcess.run(work, "get", "--rules", rules.toString(), "--state-db", work.resolve("s.db").toString(),
          server.url("/f")).assertExit(2).assertNoStackTrace();
      assertTrue(r.stderr().contains("braid: rules file " + rules + ":11: hosts.\"example.com\".conections: unknown key"),
          r.describe());
      assertTrue(server.requests().isEmpty(), "nothing is fetched with a broken rules file");
    }
    Result check = CliProcess.run(work, "rules", "--rules", rules.toString()).assertExit(2);
    assertTrue(check.stderr().contains(":11: hosts.\"example.com\".conections: unknown key"), check.describe());
    CliProcess.run(work, "rules", "--rules", work.resolve("missing.toml").toString()).assertExit(2)
        .assertOneErrorLine("no such file");
  }
}
