package dev.braid.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.rules.HostSettings;
import dev.braid.core.rules.Rules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RulesFileTest {
  private static final Path FILE = Path.of("/cfg/rules.toml");
  private static final String EXAMPLE = """
      # per-host rules
      [hosts."dl.example.com"]
      connections = 4
      rate-limit = "2M"
      user-agent = "Mozilla/5.0 (X11)"
      headers = { Referer = "https://example.com/", "X-Token" = "secret" }

      [hosts.".example.com"]
      max-connections = 8
      max-connections-per-host = 6
      proxy = "socks5://user:pw@127.0.0.1:1080"

      [hosts."intranet.example.com"]
      proxy = "direct"
      rate-limit = 1000

      [categories.video]
      extensions = ["mp4", "mkv"]
      folder = "~/Downloads/Video"

      [categories.work]
      hosts = ["*.corp.example"]
      folder = "/srv/work"
      """;

  @Test
  void readsTheDocumentedExample() throws Exception {
    Rules rules = RulesFile.parse(EXAMPLE, FILE);
    HostSettings dl = rules.forUrl("https://dl.example.com/a.mp4");
    assertEquals(4, dl.connections().getAsInt());
    assertEquals(8, dl.maxConnections().getAsInt());
    assertEquals(6, dl.maxConnectionsPerHost().getAsInt());
    assertEquals(2L << 20, dl.rateLimit().getAsLong());
    assertEquals("Mozilla/5.0 (X11)", dl.userAgent().orElseThrow());
    assertEquals(Map.of("Referer", "https://example.com/", "X-Token", "secret"), dl.headers());
    assertEquals("direct", rules.forHost("intranet.example.com").proxy().orElseThrow());
    assertEquals(1000, rules.forHost("intranet.example.com").rateLimit().getAsLong());
    assertEquals(Path.of(System.getProperty("user.home"), "Downloads", "Video"),
        rules.categoryFor("https://x.org/film.mkv").orElseThrow().folder());
    assertEquals("work", rules.categoryFor("https://a.corp.example/x.mkv").orElseThrow().name());
    List<String> report = RulesReport.describe(rules, "https://dl.example.com/a.mp4");
    String all = String.join("\n", report);
    assertTrue(all.contains("rules dl.example.com, .example.com"), all);
    assertTrue(all.contains("proxy = socks5://***@127.0.0.1:1080"), all);
    assertTrue(all.contains("headers: Referer, X-Token (values not shown)"), all);
    assertTrue(!all.contains("secret") && !all.contains("pw"), all);
    assertTrue(all.contains("category video: folder"), all);
  }

  @Test
  void anUnknownKeyNamesFileLineAndKey() {
    RulesFileException e = assertThrows(RulesFileException.class, () -> RulesFile.parse("""
        [hosts."a.com"]
        connections = 2

        [hosts."b.com"]
        conections = 3
        """, FILE));
    assertEquals(5, e.line());
    assertEquals("hosts.\"b.com\".conections", e.key());
    assertTrue(e.getMessage().startsWith("/cfg/rules.toml:5: hosts.\"b.com\".conections: unknown key (known here: "),
        e.getMessage());
  }

  @Test
  void badValuesNameTheirKey() {
    assertError("[hosts.\"a.com\"]\nconnections = 99\n", 2, "hosts.\"a.com\".connections", "between 1 and 64");
    assertError("[hosts.\"a.com\"]\nconnections = \"4\"\n", 2, "hosts.\"a.com\".connections", "whole number");
    assertError("[hosts.\"a.com\"]\nheaders = { Ok = \"1\", \"Bad Name\" = \"x\" }\n", 2,
        "hosts.\"a.com\".headers.\"Bad Name\"", "not a valid header name");
    assertError("[hosts.\"a.com\"]\nproxy = \"ftp://p:1\"\n", 2, "hosts.\"a.com\".proxy", "unsupported proxy scheme");
    assertError("\n[hosts.\"ex*ample.com\"]\n", 2, "hosts.\"ex*ample.com\"", "not a host pattern");
    assertError("[categories.video]\nextensions = [\"mp4\"]\nfolder = \"Video\"\n", 3, "categories.video.folder",
        "must be absolute");
    assertError("[categories.video]\nextensions = [\"mp4\"]\n", 1, "categories.video", "needs a folder");
    assertError("[categories.video]\nfolder = \"/v\"\nextension = [\"mp4\"]\n", 3, "categories.video.extension",
        "unknown key");
    assertError("[host.\"a.com\"]\n", 1, "host", "unknown key");
    assertError("[hosts.\"a.com\"]\nrate-limit = \"fast\"\n", 2, "hosts.\"a.com\".rate-limit", "not a rate");
    assertError("[hosts.\"a.com\"]\nrate-limit = \"1e6\"\n", 2, "hosts.\"a.com\".rate-limit", "not a rate");
    assertError("[hosts.\"a.com\"]\nrate-limit = \"-5M\"\n", 2, "hosts.\"a.com\".rate-limit", "'-5M' is negative");
  }

  @Test
  void notTomlGivesTheParsersLine() {
    RulesFileException e = assertThrows(RulesFileException.class,
        () -> RulesFile.parse("[hosts.\"a.com\"]\nconnections = = 3\n", FILE));
    assertEquals(2, e.line());
    assertTrue(e.getMessage().startsWith("/cfg/rules.toml:2: not valid TOML"), e.getMessage());
  }

  @Test
  void theDefaultLocationFollowsXdgAndAMissingDefaultFileMeansNoRules(@TempDir Path dir) throws Exception {
    Path home = Path.of("/home/u");
    assertEquals(Path.of("/x/braid/rules.toml"), RulesFile.defaultLocation(Map.of("XDG_CONFIG_HOME", "/x"), home));
    assertEquals(Path.of("/home/u/.config/braid/rules.toml"), RulesFile.defaultLocation(Map.of(), home));
    assertEquals(Path.of("/home/u/.config/braid/rules.toml"),
        RulesFile.defaultLocation(Map.of("XDG_CONFIG_HOME", "relative"), home));
    Path missing = dir.resolve("none.toml");
    RulesFileException e = assertThrows(RulesFileException.class, () -> RulesFile.load(missing, false));
    assertTrue(e.getMessage().endsWith("none.toml: no such file"), e.getMessage());
    Files.writeString(missing, "[hosts.\"a.com\"]\nconnections = 2\n");
    assertEquals(2, RulesFile.load(missing, false).forHost("a.com").connections().getAsInt());
    assertTrue(RulesFile.load(missing, true).isEmpty());
    assertTrue(RulesFile.parse("# nothing yet\n", FILE).isEmpty());
  }

  private static void assertError(String toml, int line, String key, String reason) {
    RulesFileException e = assertThrows(RulesFileException.class, () -> RulesFile.parse(toml, FILE), toml);
    assertEquals(key, e.key(), e.getMessage());
    assertEquals(line, e.line(), e.getMessage());
    assertTrue(e.getMessage().contains(reason), e.getMessage());
  }
}
