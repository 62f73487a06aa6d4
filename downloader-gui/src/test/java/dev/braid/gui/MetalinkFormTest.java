package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the add form tells a Metalink from URLs, and what it refuses before anything is added. */
class MetalinkFormTest {
  @TempDir Path dir;

  @Test
  void aLocalMetalinkIsReadAtOnceAndCarriesItsDocument() throws Exception {
    Path meta4 = dir.resolve("one.meta4");
    Files.writeString(meta4, MetalinkAddTest.doc(MetalinkAddTest.file("sub/one.bin", Content.random(1000, 1),
        List.of("https://a.example/one.bin", "https://b.example/one.bin"))));
    AddRequest r = AddForm.build("  " + meta4 + "\n", dir.resolve("dl").toString(), "", "");
    assertTrue(r.entries().isEmpty());
    assertEquals("sub/one.bin", r.metalink().parsed().files().get(0).name());
    assertEquals(Files.readString(meta4), new String(r.metalink().document(), java.nio.charset.StandardCharsets.UTF_8));
    // a file: URI names the same file
    assertArrayEquals(r.metalink().document(),
        AddForm.build(meta4.toUri().toString(), dir.resolve("dl").toString(), "", "").metalink().document());
  }

  @Test
  void aMetalinkUrlWaitsForTheQueueAndOtherTextIsNoMetalink() {
    AddRequest r = AddForm.build("https://a.example/set.meta4?x=1", dir.toString(), "", "");
    assertEquals("https://a.example/set.meta4?x=1", r.metalink().url());
    assertNull(r.metalink().parsed());
    assertNull(AddForm.build("https://a.example/set.iso", dir.toString(), "", "").metalink());
    // two lines are a list of URLs, and a list holds no Metalink
    var e = assertThrows(IllegalArgumentException.class, () -> AddForm.build("a.meta4\nb.meta4", dir.toString(), "", ""));
    assertEquals("line 1: not an http(s) URL: a.meta4", e.getMessage());
  }

  @Test
  void theSingleFileFieldsDoNotApplyToAMetalink() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> AddForm.build("https://a.example/set.meta4", dir.toString(), "sha-256=00", ""));
    assertTrue(e.getMessage().startsWith("A Metalink gives each file its checksum and mirrors"), e.getMessage());
  }
}
