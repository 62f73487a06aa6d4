package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadRequest;
import dev.braid.core.Metalink;
import dev.braid.core.MetalinkException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The parser on real documents: what it reads, what it ignores with a note, what it refuses. */
class MetalinkParserTest {
  static final String SHA1 = "a9993e364706816aba3e25717850c26c9cd0d89d";
  static final String SHA256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  @TempDir Path dir;

  static Metalink parse(String xml) throws MetalinkException {
    return Metalink.parse(xml.getBytes(StandardCharsets.UTF_8));
  }

  static String doc(String files) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
        + "<generator>test</generator>\n" + files + "</metalink>\n";
  }

  @Test
  void readsFilesUrlsHashesAndPieces() throws Exception {
    Metalink m = parse(doc("""
        <file name="a/b.bin">
          <size>5</size>
          <identity>b</identity>
          <hash type="sha-256">%s</hash>
          <hash type="sha-1">%s</hash>
          <hash type="whirlpool">00</hash>
          <pieces length="4" type="sha-1"><hash>%s</hash><hash>%s</hash></pieces>
          <pieces length="4" type="sha-256"><hash>%s</hash><hash>%s</hash></pieces>
          <url priority="2" location="DE">http://de.example/b.bin</url>
          <url priority="1" location="us">https://us.example/b.bin</url>
          <url>http://any.example/b.bin</url>
          <url priority="1">ftp://ftp.example/b.bin</url>
          <metaurl mediatype="torrent">http://example/b.torrent</metaurl>
          <x:ext xmlns:x="urn:other"><x:deep/></x:ext>
        </file>
        <file name="c.txt"><url>http://example/c.txt</url></file>
        """.formatted(SHA256, SHA1, SHA1, SHA1, SHA256, SHA256)));
    assertEquals(2, m.files().size());
    Metalink.File f = m.files().get(0);
    assertEquals("a/b.bin", f.name());
    assertEquals(5, f.size());
    assertEquals("sha-256", f.checksum().get().algorithm(), "the strongest whole-file hash");
    assertEquals("sha-256", f.pieceHashes().get().algorithm(), "the strongest piece hash");
    assertEquals(3, f.urls().size(), "the ftp URL is left out");
    assertTrue(m.notes().stream().anyMatch(n -> n.contains("metaurl (torrent) ignored")), m.notes().toString());
    assertTrue(m.notes().stream().anyMatch(n -> n.contains("ftp URL ignored")), m.notes().toString());
    assertTrue(m.notes().stream().anyMatch(n -> n.contains("hash type whirlpool ignored")), m.notes().toString());
    assertEquals(-1, m.files().get(1).size());
  }

  @Test
  void urlsAreOrderedByLocationProtocolThenPriority() throws Exception {
    Metalink.File f = parse(doc("""
        <file name="b.bin">
          <url priority="2" location="de">http://de.example/b.bin</url>
          <url priority="1" location="us">https://us.example/b.bin</url>
          <url>http://any.example/b.bin</url>
        </file>""")).files().get(0);
    DownloadRequest byPriority = f.request(dir, Metalink.Order.DOCUMENT).build();
    assertEquals("https://us.example/b.bin", byPriority.uri().toString());
    assertEquals(List.of("http://de.example/b.bin", "http://any.example/b.bin"),
        byPriority.mirrors().stream().map(Object::toString).toList());
    DownloadRequest german = f.request(dir, new Metalink.Order(List.of("DE"), "none")).build();
    assertEquals("http://de.example/b.bin", german.uri().toString());
    DownloadRequest plain = f.request(dir, new Metalink.Order(List.of(), "http")).build();
    assertEquals("http://de.example/b.bin", plain.uri().toString());
    assertEquals(dir.resolve("b.bin").toAbsolutePath(), byPriority.file().get());
  }

  @ParameterizedTest
  @ValueSource(strings = {"../evil", "a/../../evil", "/etc/passwd", "a/./b", "C:evil", "..\\evil", "a//b", "a/", "..",
      "a/.."})
  void namesThatCouldLeaveTheFolderAreRefused(String name) {
    MetalinkException e = assertThrows(MetalinkException.class,
        () -> parse(doc("<file name=\"" + name + "\"><url>http://e/x</url></file>")));
    assertTrue(e.getMessage().contains("unsafe file name"), e.getMessage());
  }

  @Test
  void eachPartOfANameIsCleanedAsAServersNameIs() throws Exception {
    String longName = "é".repeat(200) + ".iso";
    Metalink m = parse(doc("""
        <file name=".bashrc"><url>http://e/1</url></file>
        <file name="x/.ssh/authorized_keys"><url>http://e/2</url></file>
        <file name=".config/autostart/evil.desktop"><url>http://e/3</url></file>
        <file name="&#x202E;fdp.exe"><url>http://e/4</url></file>
        <file name="tab&#9;here/nul"><url>http://e/5</url></file>
        <file name="%s"><url>http://e/6</url></file>
        """.formatted(longName)));
    assertEquals(List.of("bashrc", "x/ssh/authorized_keys", "config/autostart/evil.desktop", "_fdp.exe", "tab_here/_nul",
        "é".repeat(123) + ".iso"), m.files().stream().map(Metalink.File::name).toList());
  }

  @Test
  void namesTheCleaningMakesEqualAreRefused() {
    MetalinkException e = assertThrows(MetalinkException.class, () -> parse(doc(
        "<file name=\".profile\"><url>http://e/1</url></file><file name=\"profile\"><url>http://e/2</url></file>")));
    assertTrue(e.getMessage().contains("two files are named profile"), e.getMessage());
  }

  @Test
  void anExternalEntityIsNeverRead() throws Exception {
    Path secret = Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET");
    String xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE metalink [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>\n"
        + "<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"f\"><url>http://e/&x;</url></file></metalink>";
    MetalinkException e = assertThrows(MetalinkException.class, () -> parse(xxe));
    assertTrue(e.getMessage().contains("DOCTYPE is refused"), e.getMessage());
    assertFalse(e.getMessage().contains("TOP-SECRET"));
  }

  @Test
  void anEntityExpansionBombIsRefusedBeforeAnyExpansion() {
    StringBuilder dtd = new StringBuilder("<!DOCTYPE metalink [<!ENTITY a0 \"lol\">");
    for (int i = 1; i < 10; i++) {
      dtd.append("<!ENTITY a").append(i).append(" \"").append(("&a" + (i - 1) + ";").repeat(10)).append("\">");
    }
    String bomb = dtd + "]><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"f\"><url>http://e/&a9;</url>"
        + "</file></metalink>";
    MetalinkException e = assertThrows(MetalinkException.class, () -> parse(bomb));
    assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
  }

  @Test
  void metalink3IsRefusedWithTheReason() {
    MetalinkException e = assertThrows(MetalinkException.class, () -> parse("<metalink version=\"3.0\""
        + " xmlns=\"http://www.metalinker.org/\"><files><file name=\"f\"/></files></metalink>"));
    assertTrue(e.getMessage().contains("Metalink 3"), e.getMessage());
  }

  @Test
  void malformedAndForeignDocumentsAreRefused() {
    MetalinkException broken = assertThrows(MetalinkException.class, () -> parse(doc("<file name=\"f\"><url>x</file>")));
    assertTrue(broken.getMessage().startsWith("malformed XML at line"), broken.getMessage());
    MetalinkException html = assertThrows(MetalinkException.class, () -> parse("<html><body/></html>"));
    assertTrue(html.getMessage().contains("not a Metalink 4 document"), html.getMessage());
    assertThrows(MetalinkException.class, () -> parse(doc("")));
    assertThrows(MetalinkException.class, () -> parse(""));
  }

  @Test
  void valuesOutOfRangeAreRefused() {
    assertTrue(assertThrows(MetalinkException.class, () -> parse(doc("<file name=\"f\"><url priority=\"0\">http://e/f</url>"
        + "</file>"))).getMessage().contains("priority"));
    assertTrue(assertThrows(MetalinkException.class, () -> parse(doc("<file name=\"f\"><size>-3</size></file>")))
        .getMessage().contains("size"));
    assertTrue(assertThrows(MetalinkException.class, () -> parse(doc("<file name=\"f\"><size>100</size>"
        + "<pieces length=\"10\" type=\"sha-1\"><hash>" + SHA1 + "</hash></pieces></file>"))).getMessage()
        .contains("do not cover"));
    assertTrue(assertThrows(MetalinkException.class, () -> parse(doc("<file name=\"f\"><hash type=\"sha-256\">abc</hash>"
        + "</file>"))).getMessage().contains("hexadecimal"));
    assertTrue(assertThrows(MetalinkException.class, () -> parse(doc("<file name=\"f\"/><file name=\"f\"/>")))
        .getMessage().contains("two files"));
  }

  @Test
  void aDocumentOverTheBoundIsNotParsed() throws Exception {
    Path big = dir.resolve("big.meta4");
    Files.write(big, new byte[Metalink.MAX_BYTES + 1]);
    assertTrue(assertThrows(MetalinkException.class, () -> Metalink.read(big)).getMessage().contains("larger than"));
  }

  @Test
  void aFileWithoutAnHttpUrlHasNoRequest() throws Exception {
    Metalink.File f = parse(doc("<file name=\"f\"><metaurl mediatype=\"torrent\">http://e/t</metaurl></file>")).files().get(0);
    assertTrue(assertThrows(MetalinkException.class, () -> f.request(dir, Metalink.Order.DOCUMENT)).getMessage()
        .contains("no http or https URL"));
  }
}
