package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** A Metalink added through the window, over a real queue, store and loopback mirrors. */
@ExtendWith(ApplicationExtension.class)
class MetalinkAddTest extends LiveWindowHarness {
  private static final int PIECE = 256 << 10;

  @Start
  void start(Stage stage) throws Exception {
    open(stage);
  }

  @Test
  void aDroppedMetalinkAddsItsFilesWithMirrorsAndPieceHashesPastACorruptMirror(FxRobot robot) throws Exception {
    Content big = Content.random(2 << 20, 31);
    Content small = Content.random(300 << 10, 32);
    // the preferred mirror inverts a byte in the second piece: its hash fails and the piece comes again
    server.serve("/a/big.bin", big).corruptBytes(PIECE + 7, PIECE + 8);
    server.serve("/b/big.bin", big);
    server.serve("/b/small.bin", small);
    Path meta4 = dir.resolve("set.meta4");
    Files.writeString(meta4, doc(file("iso/big.bin", big, List.of(server.url("/a/big.bin"), server.url("/b/big.bin"))),
        file("small.bin", small, List.of(server.url("/b/small.bin")))));

    // dropped onto the window: the dialog opens with its path and reads it as a Metalink
    new DropHandler(Runnable::run, window::openAdd, why -> window.problem("drop", why)).read(List.of(meta4.toFile()));
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(meta4.toAbsolutePath() + "\n", robot.lookup("#add-urls").queryAs(TextArea.class).getText());
    assertEquals("", robot.lookup(".form-problem").queryLabeled().getText());
    robot.clickOn("#add-confirm");

    awaitRow(server.url("/a/big.bin"), r -> r.status() == DownloadState.COMPLETED, 30);
    awaitRow(server.url("/b/small.bin"), r -> r.status() == DownloadState.COMPLETED, 30);
    assertEquals(big.sha256Hex(), Content.sha256Hex(downloads().resolve("iso/big.bin")));
    assertEquals(small.sha256Hex(), Content.sha256Hex(downloads().resolve("small.bin")));
    assertEquals(2, WaitForAsyncUtils.asyncFx(() -> window.table().getItems().size()).get());
    assertTrue(server.requests().stream().anyMatch(r -> r.path().equals("/a/big.bin") && covers(r.range(), PIECE + 7)),
        "the corrupt mirror served the bad byte: " + server.requests());
  }

  /** Whether a {@code bytes=FROM-TO} (or {@code FROM-}) range holds {@code at}; no range is the whole file. */
  private static boolean covers(String range, long at) {
    if (range == null) {
      return true;
    }
    String[] fromTo = range.substring("bytes=".length()).split("-", -1);
    long from = Long.parseLong(fromTo[0].strip());
    return from <= at && (fromTo[1].isBlank() || Long.parseLong(fromTo[1].strip()) >= at);
  }

  @Test
  void aRefusedMetalinkSaysWhyInTheDialogAndAddsNothing(FxRobot robot) throws Exception {
    Content c = Content.random(64 << 10, 33);
    server.serve("/c.bin", c);
    Path broken = dir.resolve("broken.meta4");
    Files.writeString(broken, "<?xml version=\"1.0\"?>\n<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"c.bin\">");
    Path climbing = dir.resolve("climbing.meta4");
    Files.writeString(climbing, doc(file("../c.bin", c, List.of(server.url("/c.bin")))));
    Path v3 = dir.resolve("old.metalink");
    Files.writeString(v3, "<?xml version=\"1.0\"?>\n<metalink version=\"3.0\" xmlns=\"http://www.metalinker.org/\"><files>"
        + "<file name=\"c.bin\"><resources><url type=\"http\">" + server.url("/c.bin") + "</url></resources></file></files></metalink>");

    // typed as a file: URI, then as paths: each refused with the parser's reason, Add stays off
    robot.interact(() -> window.openAdd(broken.toUri().toString()));
    WaitForAsyncUtils.waitForFxEvents();
    assertRefused(robot);
    for (Path p : List.of(climbing, v3)) {
      robot.interact(() -> robot.lookup("#add-urls").queryAs(TextArea.class).setText(p.toString()));
      assertRefused(robot);
    }
    robot.interact(() -> robot.lookup("#add-urls").queryAs(TextArea.class).setText(dir.resolve("missing.meta4").toString()));
    assertTrue(robot.lookup(".form-problem").queryLabeled().getText().startsWith("Cannot read the Metalink"));
    assertTrue(robot.lookup("#add-confirm").queryButton().isDisabled());

    // a click on the disabled Add does nothing: nothing reaches the queue or the folder
    robot.clickOn("#add-confirm");
    await("the queue stays empty").during(Duration.ofMillis(1200)).atMost(Duration.ofSeconds(5))
        .until(() -> WaitForAsyncUtils.asyncFx(() -> window.table().getItems().isEmpty()).get());
    assertFalse(Files.exists(dir.resolve("c.bin")));
    assertFalse(Files.exists(downloads().resolve("c.bin")));
    assertTrue(server.requests().isEmpty(), "nothing was fetched");
  }

  @Test
  void aMetalinkUrlIsFetchedByTheQueueAndARefusedOneIsACard(FxRobot robot) throws Exception {
    Content c = Content.random(700 << 10, 34);
    server.serve("/m/c.bin", c);
    server.serve("/set.meta4", Content.of(doc(file("c.bin", c, List.of(server.url("/m/c.bin"))))
        .getBytes(StandardCharsets.UTF_8)));
    server.serve("/bad.meta4", Content.of("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file"
        .getBytes(StandardCharsets.UTF_8)));

    robot.interact(() -> window.openAdd(server.url("/bad.meta4")));
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals("", robot.lookup(".form-problem").queryLabeled().getText(), "a URL is read when added");
    robot.clickOn("#add-confirm");
    WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() ->
        robot.lookup(".toast-title").queryAll().stream().anyMatch(n -> ((javafx.scene.control.Labeled) n).getText()
            .equals("Cannot add the Metalink " + server.url("/bad.meta4")))).get());
    assertTrue(WaitForAsyncUtils.asyncFx(() -> window.table().getItems().isEmpty()).get());

    robot.interact(() -> window.openAdd(server.url("/set.meta4")));
    WaitForAsyncUtils.waitForFxEvents();
    robot.clickOn("#add-confirm");
    awaitRow(server.url("/m/c.bin"), r -> r.status() == DownloadState.COMPLETED, 30);
    assertEquals(c.sha256Hex(), Content.sha256Hex(downloads().resolve("c.bin")));
    assertEquals(1, WaitForAsyncUtils.asyncFx(() -> window.table().getItems().size()).get(), "the Metalink itself is no download");
  }

  private static void assertRefused(FxRobot robot) {
    WaitForAsyncUtils.waitForFxEvents();
    String problem = robot.lookup(".form-problem").queryLabeled().getText();
    assertTrue(problem.startsWith("Metalink refused: "), problem);
    assertTrue(robot.lookup("#add-confirm").queryButton().isDisabled());
  }

  /** One {@code <file>}: name, size, sha-256, sha-256 pieces, and its URLs (priority in order). */
  static String file(String name, Content c, List<String> urls) throws Exception {
    StringBuilder b = new StringBuilder("  <file name=\"" + name + "\">\n    <size>" + c.size() + "</size>\n");
    b.append("    <hash type=\"sha-256\">").append(c.sha256Hex()).append("</hash>\n");
    b.append("    <pieces length=\"").append(PIECE).append("\" type=\"sha-256\">\n");
    byte[] all = new byte[(int) c.size()];
    c.read(0, all, 0, all.length);
    for (int at = 0; at < all.length; at += PIECE) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(all, at, Math.min(PIECE, all.length - at));
      b.append("      <hash>").append(HexFormat.of().formatHex(md.digest())).append("</hash>\n");
    }
    b.append("    </pieces>\n");
    for (int i = 0; i < urls.size(); i++) {
      b.append("    <url priority=\"").append(i + 1).append("\">").append(urls.get(i)).append("</url>\n");
    }
    return b.append("  </file>\n").toString();
  }

  static String doc(String... files) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
        + String.join("", files) + "</metalink>\n";
  }
}
