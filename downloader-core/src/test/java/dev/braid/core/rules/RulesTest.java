package dev.braid.core.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RulesTest {
  @Test
  void patternsMatchTheirDocumentedHosts() {
    HostPattern exact = HostPattern.parse("Example.COM.");
    assertTrue(exact.matches("example.com"));
    assertFalse(exact.matches("a.example.com"));
    HostPattern subdomains = HostPattern.parse("*.example.com");
    assertTrue(subdomains.matches("a.b.example.com"));
    assertFalse(subdomains.matches("example.com"));
    assertFalse(subdomains.matches("badexample.com"));
    HostPattern domain = HostPattern.parse(".example.com");
    assertTrue(domain.matches("example.com"));
    assertTrue(domain.matches("cdn.example.com"));
    assertFalse(domain.matches("example.org"));
    assertTrue(HostPattern.parse("*").matches("anything"));
    assertTrue(HostPattern.parse("::1").matches("[::1]"));
    assertThrows(IllegalArgumentException.class, () -> HostPattern.parse("ex*ample.com"));
    assertThrows(IllegalArgumentException.class, () -> HostPattern.parse(""));
    assertThrows(IllegalArgumentException.class, () -> HostPattern.parse("*."));
  }

  @Test
  void theMostSpecificRuleWinsEachSettingAndHeadersMerge() {
    Rules rules = Rules.of(List.of(
        HostRule.builder("*").maxConnections(4).header("X-All", "1").build(),
        HostRule.builder(".example.com").connections(2).header("X-Site", "domain").userAgent("Site/1").build(),
        HostRule.builder("*.example.com").connections(3).build(),
        HostRule.builder("dl.example.com").rateLimit(1000).header("x-site", "exact").build(),
        HostRule.builder(".cdn.dl.example.com").connections(5).build()), List.of());
    HostSettings dl = rules.forHost("dl.example.com");
    assertEquals(OptionalInt.of(3), dl.connections());
    assertEquals(OptionalInt.of(4), dl.maxConnections());
    assertEquals(1000, dl.rateLimit().getAsLong());
    assertEquals("Site/1", dl.userAgent().orElseThrow());
    assertEquals(Map.of("X-All", "1", "x-site", "exact"), dl.headers());
    assertEquals("[dl.example.com, *.example.com, .example.com, *]", dl.matched().toString());
    assertEquals(OptionalInt.of(2), rules.forHost("example.com").connections());
    assertEquals(OptionalInt.of(5), rules.forHost("x.cdn.dl.example.com").connections());
    assertEquals(List.of(HostPattern.parse("*")), rules.forHost("other.org").matched());
    assertTrue(rules.forUrl("not a url").matched().isEmpty());
  }

  @Test
  void settingsGoOnARequestWhereExplicitOptionsCanReplaceThem() throws Exception {
    Rules rules = Rules.of(List.of(HostRule.builder("example.com").connections(3).userAgent("UA/1")
        .header("Referer", "https://example.com/").build()), List.of());
    DownloadRequestBuilder b = DownloadRequest.builder("https://example.com/f.iso");
    rules.forUrl("https://example.com/f.iso").applyTo(b);
    b.connections(7);
    DownloadRequest r = b.build();
    assertEquals(7, r.connections().getAsInt());
    assertEquals("UA/1", r.headers().get("User-Agent"));
    assertEquals("https://example.com/", r.headers().get("Referer"));
  }

  @Test
  void categoriesPreferTheHostThenTheTypeThenTheOrder() {
    Path video = Path.of("/tmp/v");
    Path work = Path.of("/tmp/w");
    Path workVideo = Path.of("/tmp/wv");
    Rules rules = Rules.of(List.of(), List.of(
        Category.builder("video", video).extension("mp4").extension(".MKV").build(),
        Category.builder("work", work).host(".corp.example").build(),
        Category.builder("work-video", workVideo).host(".corp.example").extension("mp4").build(),
        Category.builder("archives", Path.of("/tmp/a")).extension("tar.gz").build()));
    assertEquals("video", rules.categoryFor("https://x.org/a/film.MKV?x=1").orElseThrow().name());
    assertEquals("work", rules.categoryFor("https://files.corp.example/report.pdf").orElseThrow().name());
    assertEquals("work-video", rules.categoryFor("https://files.corp.example/talk.mp4").orElseThrow().name());
    assertEquals("archives", rules.categoryFor("https://x.org/src.tar.gz").orElseThrow().name());
    assertTrue(rules.categoryFor("https://x.org/mp4").isEmpty());
    assertTrue(rules.categoryFor("https://x.org/notes.txt").isEmpty());
  }

  @Test
  void badRulesAreRefusedWithTheirReason() {
    assertThrows(IllegalArgumentException.class, () -> Rules.of(List.of(HostRule.builder("a.com").build(),
        HostRule.builder("A.com").build()), List.of()));
    assertThrows(IllegalArgumentException.class, () -> HostRule.builder("a.com").connections(0));
    assertThrows(IllegalArgumentException.class, () -> HostRule.builder("a.com").header("X", "a\r\nB: c"));
    assertThrows(IllegalArgumentException.class, () -> HostRule.builder("a.com").proxy("ftp://p:1"));
    assertEquals(HostRule.DIRECT, HostRule.builder("a.com").proxy("DIRECT").build().proxy().orElseThrow());
    assertThrows(IllegalArgumentException.class, () -> Category.builder("c", Path.of("rel")).extension("mp4"));
    assertThrows(IllegalArgumentException.class, () -> Category.builder("c", Path.of("/abs")).build());
  }

  @Test
  void withoutProxiesDropsOnlyTheProxy() {
    Rules rules = Rules.of(List.of(HostRule.builder("a.com").proxy("http://127.0.0.1:1").connections(2).build()), List.of());
    assertTrue(rules.forHost("a.com").proxy().isPresent());
    HostSettings s = rules.withoutProxies().forHost("a.com");
    assertTrue(s.proxy().isEmpty());
    assertEquals(2, s.connections().getAsInt());
  }
}
