package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Names from outside on real downloads into a real folder: a server's Content-Disposition too long
 * for any file system (and once too long for the parser's stack), a broken one, and Metalink names
 * that would go through a symbolic link out of the folder.
 */
class RemoteNamesTest extends DownloadHarness {
  @Test
  void aTwoThousandCharacterQuotedNameIsCutToFitKeepingItsExtension() throws Exception {
    Content content = Content.random(100_000, 51);
    server.serve("/x.bin", content).contentDisposition("attachment; filename=\"" + "a\\\"b".repeat(500) + ".iso\"");
    DownloadResult r = get(DownloadRequest.builder(server.url("/x.bin")).directory(dir.resolve("dl")));
    String name = r.file().getFileName().toString();
    assertEquals(dir.resolve("dl"), r.file().getParent());
    assertTrue(name.endsWith(".iso"), name);
    assertTrue(name.startsWith("a_ba_ba_b"), name);
    // the part file had room for its suffix within a file system's 255 bytes
    assertTrue((name + ".part").getBytes(StandardCharsets.UTF_8).length <= 255, name);
    assertEquals(sha256(content), sha256(r.file()));
  }

  @Test
  void aDispositionWithAnUnterminatedQuoteFallsBackToTheUrlsName() throws Exception {
    Content content = Content.random(10_000, 52);
    server.serve("/from-url.bin", content).contentDisposition("attachment; filename=\"evil.exe");
    DownloadResult r = get(DownloadRequest.builder(server.url("/from-url.bin")).directory(dir));
    assertEquals(dir.resolve("from-url.bin"), r.file());
  }

  @Test
  void aMetalinkNameThroughALinkOutOfTheFolderIsRefused() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("dl"));
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.createSymbolicLink(folder.resolve("docs"), outside);
    Files.createDirectories(folder.resolve("inner"));
    Files.createSymbolicLink(folder.resolve("alias"), folder.resolve("inner"));
    Files.createSymbolicLink(folder.resolve("dangling"), dir.resolve("nowhere"));
    Metalink m = Metalink.parse(("<?xml version=\"1.0\"?><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">"
        + "<file name=\"docs/autostart/x.desktop\"><url>" + server.url("/x") + "</url></file>"
        + "<file name=\"dangling/x\"><url>" + server.url("/x") + "</url></file>"
        + "<file name=\"alias/y.bin\"><url>" + server.url("/y") + "</url></file></metalink>").getBytes(StandardCharsets.UTF_8));
    for (Metalink.File f : m.files().subList(0, 2)) {
      MetalinkException e = assertThrows(MetalinkException.class, () -> f.request(folder, Metalink.Order.DOCUMENT));
      assertTrue(e.getMessage().contains("a symbolic link leading out of the folder"), e.getMessage());
    }
    // a link that stays inside the folder is the user's own arrangement
    assertEquals(folder.resolve("alias/y.bin"), m.files().get(2).request(folder, Metalink.Order.DOCUMENT).build().file().get());
    try (var left = Files.list(outside)) {
      assertEquals(List.of(), left.toList());
    }
  }

  @Test
  void aPartFilePlantedAsALinkIsNotFollowed() throws Exception {
    Content content = Content.random(10_000, 53);
    server.serve("/f.bin", content);
    // a link to a file not there yet: no .part seems to exist, and opening one would create the file it names
    Path victim = Files.createDirectories(dir.resolve("outside")).resolve("autostart.desktop");
    Path folder = Files.createDirectories(dir.resolve("dl"));
    Files.createSymbolicLink(folder.resolve("f.bin.part"), victim);
    LocalFileException e = assertThrows(LocalFileException.class,
        () -> get(DownloadRequest.builder(server.url("/f.bin")).file(folder.resolve("f.bin"))));
    assertTrue(e.getMessage().contains("f.bin.part"), e.getMessage());
    assertFalse(Files.exists(victim), "written through the link");
    assertFalse(Files.exists(folder.resolve("f.bin")));
  }
}
