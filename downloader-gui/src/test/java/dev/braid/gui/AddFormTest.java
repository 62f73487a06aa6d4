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
    AddRequest r = AddForm.build("https://a.example/x.iso", "/tmp/dl", " SHA-256=AB12 ", "https://b.example/x.iso\n\nhttps://c.example/x.iso");
    assertEquals(Path.of("/tmp/dl"), r.folder());
    AddRequest.Entry e = r.entries().get(0);
    assertEquals("sha-256=ab12", e.checksum());
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
  }
}
