package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UrlListParserTest {
  @Test
  void readsAnInputListWithOptionsMirrorsCommentsAndBlankLines() {
    List<AddRequest.Entry> e = UrlListParser.parse("""
        # nightly set
        https://a.example/one.iso  https://b.example/one.iso
          out=first.iso
          checksum=SHA-256=ABCDEF01
          https://c.example/one.iso

        http://a.example/two.bin
        """);
    assertEquals(2, e.size());
    assertEquals("https://a.example/one.iso", e.get(0).url());
    assertEquals(List.of("https://b.example/one.iso", "https://c.example/one.iso"), e.get(0).mirrors());
    assertEquals("first.iso", e.get(0).fileName());
    assertEquals("sha-256=abcdef01", e.get(0).checksum());
    assertEquals("http://a.example/two.bin", e.get(1).url());
    assertNull(e.get(1).checksum());
  }

  @Test
  void namesTheLineThatIsWrong() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> UrlListParser.parse("https://ok.example/a\nftp://no.example/b"));
    assertTrue(e.getMessage().startsWith("line 2:"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> UrlListParser.parse("https://ok.example/a\n  colour=blue"));
  }

  @Test
  void theClipboardPrefillsOnlyASingleWebUrl() {
    assertEquals(Optional.of("https://x.example/f.zip"), UrlListParser.singleUrl("  https://x.example/f.zip\n"));
    assertFalse(UrlListParser.singleUrl("hello world").isPresent());
    assertFalse(UrlListParser.singleUrl("file:///etc/passwd").isPresent());
    assertFalse(UrlListParser.singleUrl("https://a.example/1\nhttps://a.example/2").isPresent());
    assertFalse(UrlListParser.singleUrl(null).isPresent());
  }
}
