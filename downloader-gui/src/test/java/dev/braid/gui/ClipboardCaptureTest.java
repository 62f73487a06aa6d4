package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.Braid;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Clipboard capture over a real queue: a copied link offers itself (once), Download adds it, and
 * the rules file decides its folder and headers.
 */
@ExtendWith(ApplicationExtension.class)
class ClipboardCaptureTest extends LiveWindowHarness {

  @Start
  void start(Stage stage) throws Exception {
    Files.createDirectories(dir);
    try (Braid b = Braid.builder().stateDatabase(db()).build()) {
      b.saveSetting(GuiSettings.CLIPBOARD, "true");
    }
    Files.writeString(dir.resolve("rules.toml"), """
        [hosts."127.0.0.1"]
        headers = { X-Rule = "gui" }

        [categories.video]
        extensions = ["mp4"]
        folder = "%s"
        """.formatted(dir.resolve("Video")));
    rules = AppRules.load(dir.resolve("rules.toml"));
    open(stage);
    window.rules(rules);
  }

  @Test
  void aCopiedLinkIsOfferedOnceAndDownloadAddsItIntoItsCategorysFolder(FxRobot robot) throws Exception {
    Content clip = Content.random(1 << 20, 21);
    server.serve("/clip.mp4", clip).etag("\"c\"");
    String url = server.url("/clip.mp4");
    assertTrue(WaitForAsyncUtils.asyncFx(() -> window.clipboard().enabled()).get(), "the stored setting turned it on");
    copy(robot, url);
    WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> robot.lookup("#clipboard-offer").tryQuery().isPresent());
    assertEquals(url, robot.lookup("#clipboard-link").queryAs(Label.class).getText());
    assertTrue(window.table().getItems().isEmpty(), "an offer, not a download");
    press(robot, "#clipboard-download");
    WaitForAsyncUtils.waitForFxEvents();
    assertFalse(robot.lookup("#clipboard-offer").tryQuery().isPresent());
    awaitRow(url, r -> r.status() == DownloadState.COMPLETED, 20);
    assertEquals(clip.sha256Hex(), sha256(dir.resolve("Video/clip.mp4")));
    for (RequestRecord q : server.requests()) {
      assertEquals("gui", q.header("X-Rule"), q.toString());
    }

    // the same link again, also after other text came between: no second offer
    copyAndCheck(robot, url);
    copyAndCheck(robot, "some words, not a link");
    copyAndCheck(robot, url);
    assertFalse(robot.lookup("#clipboard-offer").tryQuery().isPresent());
    copyAndCheck(robot, "ftp-less text://");
    assertFalse(robot.lookup("#clipboard-offer").tryQuery().isPresent());

    // another link is offered; Dismiss adds nothing
    copyAndCheck(robot, server.url("/other.bin"));
    assertTrue(robot.lookup("#clipboard-offer").tryQuery().isPresent());
    press(robot, "#clipboard-dismiss");
    WaitForAsyncUtils.waitForFxEvents();
    assertFalse(robot.lookup("#clipboard-offer").tryQuery().isPresent());
    assertEquals(1, window.table().getItems().size());
  }

  @Test
  void theSettingsCheckboxTurnsCaptureOff(FxRobot robot) throws Exception {
    robot.clickOn("#settings");
    robot.clickOn("#settings-clipboard");
    robot.clickOn("#settings-ok");
    WaitForAsyncUtils.waitForFxEvents();
    assertFalse(WaitForAsyncUtils.asyncFx(() -> window.clipboard().enabled()).get());
    assertFalse(queue.settings().clipboard());
  }

  private static void copy(FxRobot robot, String text) {
    robot.interact(() -> {
      ClipboardContent c = new ClipboardContent();
      c.putString(text);
      Clipboard.getSystemClipboard().setContent(c);
    });
  }

  /** Copies and makes the capture read the clipboard now, not at its next tick: a "no offer" is then certain. */
  private void copyAndCheck(FxRobot robot, String text) {
    robot.interact(() -> {
      ClipboardContent c = new ClipboardContent();
      c.putString(text);
      Clipboard.getSystemClipboard().setContent(c);
      window.clipboard().check();
    });
  }

  private static String sha256(java.nio.file.Path file) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }

  /**
   * Presses a button of the offer on the FX thread: a robot's click looks the node up from the test
   * thread while the FX thread may still be adding the offer (once found with no scene yet).
   */
  private static void press(FxRobot robot, String id) {
    robot.interact(() -> robot.lookup(id).queryButton().fire());
  }
}
