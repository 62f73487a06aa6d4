package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AddFormTest {
  @Test
  void aSingleFileTakesTheChecksumAndMirrorFields() {
    String md5 = "D41D8CD98F00B204E9800998ECF8427E";
    AddRequest r = AddForm.build("https://a.example/x.iso", "/tmp/dl", " MD5=" + md5 + " ", "https://b.example/x.iso\n\nhttps://c.example/x.iso");
    assertEquals(Path.of("/tmp/dl"), r.folder());
    AddRequest.Entry e = r.entries().get(0);
    assertEquals("md5=" + md5.toLowerCase(java.util.Locale.ROOT), e.checksum());
    assertEquals(List.of("https://b.example/x.iso", "https://c.example/x.iso"), e.mirrors());
  }

  @Test
  void severalUrlsAreSeveralFiles() {
    AddRequest r = AddForm.build("https://a.example/1\nhttps://a.example/2\n", "/tmp", "", "");
    assertEquals(2, r.entries().size());
  }

  @Test
  void saysWhatIsWrong() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> AddForm.build("", "/tmp", "", "")).getMessage().contains("at least one"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> AddForm.build("https://a.example/1", " ", "", "")).getMessage().contains("folder"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> AddForm.build("https://a.example/1", "/tmp", "md5", "")).getMessage().contains("ALGO=HEX"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> AddForm.build("https://a.example/1\nhttps://a.example/2", "/tmp", "md5=00", "")).getMessage().contains("one file"));
    // Braid's parser has the last word: a digest of the wrong length, an unknown algorithm
    assertTrue(assertThrows(IllegalArgumentException.class, () -> AddForm.build("https://a.example/1", "/tmp", "sha-256=ab12", "")).getMessage().contains("64"));
    assertThrows(IllegalArgumentException.class, () -> AddForm.build("https://a.example/1\n  checksum=crc99=00", "/tmp", "", ""));
  }
}
