package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The window over a real queue, store and loopback server, driven as a person would. */
@ExtendWith(ApplicationExtension.class)
class QueueWindowTest extends LiveWindowHarness {
  @Start
  void start(Stage stage) throws Exception {
    open(stage);
  }

  @Test
  void aUrlFromTheClipboardIsAddedAndCompletesInTheTable(FxRobot robot) throws Exception {
    Content file = Content.random(3 << 20, 11);
    server.serve("/data/one.bin", file).etag("\"v1\"");
    String url = server.url("/data/one.bin");

    robot.interact(() -> {
      javafx.scene.input.ClipboardContent c = new javafx.scene.input.ClipboardContent();
      c.putString(url);
      javafx.scene.input.Clipboard.getSystemClipboard().setContent(c);
    });
    robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.N)
        .release(javafx.scene.input.KeyCode.N, javafx.scene.input.KeyCode.CONTROL);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(url, robot.lookup("#add-urls").queryAs(TextArea.class).getText(), "pre-filled from the clipboard");
    robot.interact(() -> robot.lookup("#add-checksum").queryAs(javafx.scene.control.TextField.class).setText("SHA-256=" + file.sha256Hex()));
    robot.clickOn("#add-confirm");

    DownloadRow row = awaitRow(url, r -> r.status() == DownloadState.COMPLETED, 20);
    assertEquals("one.bin", row.nameProperty().get());
    assertEquals(1.0, row.fractionProperty().get());
    assertEquals(3 << 20, row.lengthProperty().get());
    Path saved = downloads().resolve("one.bin");
    assertEquals(file.sha256Hex(), Content.sha256Hex(saved));
    select(robot, row);
    assertEquals("\"v1\"", robot.lookup("#fact-etag").queryAs(Label.class).getText());
    assertEquals("sha-256=" + file.sha256Hex() + " (verified)", robot.lookup("#fact-checksum").queryAs(Label.class).getText());
    // the pane shows the row's latest snapshot: the one with the run's timings may come a poll later
    WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(
        () -> robot.lookup("#fact-timings").queryAs(Label.class).getText().startsWith("DNS ")).get());
    assertTrue(robot.lookup(".toast-title").queryLabeled().getText().contains("complete"));

    // Shift+Delete asks, then removes the row and the file
    robot.press(javafx.scene.input.KeyCode.SHIFT, javafx.scene.input.KeyCode.DELETE)
        .release(javafx.scene.input.KeyCode.DELETE, javafx.scene.input.KeyCode.SHIFT);
    WaitForAsyncUtils.waitForFxEvents();
    robot.clickOn("OK");
    WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() -> window.table().getItems().isEmpty()).get());
    WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> !Files.exists(saved));
    // and it stays gone: the next polls of the store do not bring it back
    await("the row stays gone").during(Duration.ofMillis(1200)).atMost(Duration.ofSeconds(5))
        .until(() -> WaitForAsyncUtils.asyncFx(() -> window.table().getItems().isEmpty()).get());
  }

  @Test
  void pauseHoldsTheBytesAndResumeFinishesTheFile(FxRobot robot) throws Exception {
    // slow enough (at most 16 connections of 128 KiB/s: 12 s or more) that a loaded machine still pauses it mid-way
    Content file = Content.random(24 << 20, 12);
    var resource = server.serve("/slow.bin", file).etag("\"s1\"").rateLimitPerConnection(128 << 10);
    String url = server.url("/slow.bin");
    addThroughDialog(robot, url);
    DownloadRow row = awaitRow(url, r -> r.status() == DownloadState.ACTIVE && r.snapshot().done() > 0, 20);

    select(robot, row);
    robot.clickOn("#action-pause");
    awaitRow(url, r -> r.status() == DownloadState.PAUSED, 10);
    long held = WaitForAsyncUtils.asyncFx(() -> row.snapshot().done()).get();
    await("no bytes while paused").during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5))
        .until(() -> WaitForAsyncUtils.asyncFx(() -> row.snapshot().done()).get() == held);
    assertFalse(Files.exists(downloads().resolve("slow.bin")), "the final name appears only when complete");
    assertTrue(held > 0 && held < file.size());

    resource.rateLimitPerConnection(0);
    robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.R)
        .release(javafx.scene.input.KeyCode.R, javafx.scene.input.KeyCode.CONTROL);
    awaitRow(url, r -> r.status() == DownloadState.COMPLETED, 20);
    assertEquals(file.sha256Hex(), Content.sha256Hex(downloads().resolve("slow.bin")));
  }

  @Test
  void aNewLinkForAPausedFileContinuesItWithTheBytesItHas(FxRobot robot) throws Exception {
    Content file = Content.random(24 << 20, 14);
    server.serve("/expiring.bin", file).etag("\"e1\"").rateLimitPerConnection(128 << 10);
    server.serve("/fresh.bin", file).etag("\"e1\"");
    String url = server.url("/expiring.bin");
    addThroughDialog(robot, url);
    DownloadRow row = awaitRow(url, r -> r.status() == DownloadState.ACTIVE && r.snapshot().done() > 0, 20);
    select(robot, row);
    robot.clickOn("#action-pause");
    awaitRow(url, r -> r.status() == DownloadState.PAUSED, 10);
    long held = WaitForAsyncUtils.asyncFx(() -> row.snapshot().done()).get();
    long sentBefore = server.bodyBytesSent();

    robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.L)
        .release(javafx.scene.input.KeyCode.L, javafx.scene.input.KeyCode.CONTROL);
    WaitForAsyncUtils.waitForFxEvents();
    robot.interact(() -> robot.lookup("#new-link-url").queryAs(javafx.scene.control.TextField.class)
        .setText(server.url("/fresh.bin")));
    robot.clickOn("OK");

    long id = row.id();
    WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() -> window.table().getItems().stream()
        .anyMatch(r -> r.id() == id && r.status() == DownloadState.COMPLETED)).get());
    assertEquals(file.sha256Hex(), Content.sha256Hex(downloads().resolve("expiring.bin")));
    long sent = server.bodyBytesSent() - sentBefore;
    // the held bytes stay: what the new link sent is the rest, plus at most the probe's 4 MiB window
    assertTrue(sent < file.size() - held + (4 << 20), "sent " + sent + " with " + held + " held");
  }

  @Test
  void aDownloadAnotherProcessStartsOnTheSameStoreShowsUpAndIsNotDrivenTwice(FxRobot robot) throws Exception {
    Content file = Content.random(4 << 20, 13);
    server.serve("/other.bin", file).rateLimitPerConnection(512 << 10);
    String url = server.url("/other.bin");
    Path folder = java.nio.file.Files.createDirectories(dir.resolve("cli"));
    Path log = dir.resolve("other.log");
    Process other = OtherProcess.start(db(), url, folder, log);
    try {
      // seen through the store while the other process drives it; a second driver would fail it
      awaitRow(url, r -> r.status() == DownloadState.ACTIVE, 15);
      DownloadRow row = awaitRow(url, r -> r.status() == DownloadState.COMPLETED, 30);
      assertEquals(4 << 20, row.lengthProperty().get());
      assertTrue(other.waitFor(15, TimeUnit.SECONDS));
      // the submitting process claims its entry at once: the window's queue (which runs whatever
      // the store holds queued) must leave it alone, so the other process finishes its own download
      assertEquals(0, other.exitValue(), () -> readLog(log));
    } finally {
      other.destroyForcibly();
    }
    assertEquals(file.sha256Hex(), Content.sha256Hex(folder.resolve("other.bin")));
  }

  private static String readLog(Path log) {
    try {
      return java.nio.file.Files.readString(log);
    } catch (java.io.IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Test
  void aMissingFileShowsTheServersErrorInTheDetailPane(FxRobot robot) throws Exception {
    server.respond("/gone.iso", 404);
    String url = server.url("/gone.iso");
    addThroughDialog(robot, url);
    DownloadRow row = awaitRow(url, r -> r.status() == DownloadState.FAILED, 20);
    select(robot, row);
    WaitForAsyncUtils.waitForFxEvents();
    Label error = robot.lookup("#detail-error").queryAs(Label.class);
    assertTrue(error.isVisible());
    assertTrue(error.getText().contains("404"), error.getText());
    assertTrue(robot.lookup(".toast-title").queryLabeled().getText().contains("failed"));

    // the file appears on the server: Ctrl+R retries the failed download
    Content file = Content.random(1 << 20, 14);
    server.serve("/gone.iso", file);
    robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.R)
        .release(javafx.scene.input.KeyCode.R, javafx.scene.input.KeyCode.CONTROL);
    awaitRow(url, r -> r.status() == DownloadState.COMPLETED, 20, true);
    assertEquals(file.sha256Hex(), Content.sha256Hex(downloads().resolve("gone.iso")));
    WaitForAsyncUtils.waitForFxEvents();
    assertFalse(robot.lookup("#detail-error").queryAs(Label.class).isVisible(), "the old error is gone");
  }
}
