package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The window's wiring and its responsiveness, fed by snapshots as Braid's threads would feed it. */
@ExtendWith(ApplicationExtension.class)
class MainWindowTest {
  private final RecordingActions actions = new RecordingActions();
  private final SnapshotCoalescer coalescer = new SnapshotCoalescer();
  private MainWindow window;

  @Start
  void start(Stage stage) {
    window = new MainWindow(actions, coalescer, Runnable::run, p -> {});
    stage.setScene(window.scene());
    stage.show();
    window.start();
  }

  @Test
  void staysResponsiveWhileFiveHundredDownloadsReportAsFastAsTheyCan(FxRobot robot) throws Exception {
    AtomicBoolean flooding = new AtomicBoolean(true);
    Thread producer = new Thread(() -> {
      long n = 0;
      while (flooding.get()) {
        n++;
        for (int id = 1; id <= 500; id++) {
          coalescer.offer(SnapshotCoalescerTest.snap(id, n % 1000, DownloadState.ACTIVE));
        }
      }
    });
    producer.start();
    try {
      // the flood has reached the table: every download has a row
      WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
          () -> WaitForAsyncUtils.asyncFx(() -> window.table().getItems().size() == 500).get());
      // while the flood goes on, a runnable posted to the FX thread runs promptly, many times
      List<Long> lags = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        long t0 = System.nanoTime();
        WaitForAsyncUtils.asyncFx(() -> {}).get(5, TimeUnit.SECONDS);
        lags.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        Thread.sleep(50);
      }
      lags.sort(null);
      // a frozen window lags by seconds; the bound leaves room for a loaded 2-core machine
      assertTrue(lags.get(lags.size() / 2) < 250, "FX thread lag (ms): " + lags);
    } finally {
      flooding.set(false);
      producer.join();
    }
  }

  @Test
  void shortcutsAndTheToolbarActOnTheSelectedRows(FxRobot robot) {
    for (int id = 1; id <= 3; id++) {
      coalescer.offer(SnapshotCoalescerTest.snap(id, 10, DownloadState.ACTIVE));
    }
    WaitForAsyncUtils.waitForAsyncFx(2000, () -> window.refresh());
    robot.interact(() -> {
      window.table().getSelectionModel().selectIndices(0, 2);
      window.table().requestFocus();
    });
    robot.press(KeyCode.CONTROL, KeyCode.P).release(KeyCode.P, KeyCode.CONTROL);
    robot.clickOn("#action-resume");
    robot.press(KeyCode.DELETE).release(KeyCode.DELETE);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(List.of("pause [1, 3]", "resume [1, 3]", "remove [1, 3] false"), actions.calls);
  }

  @Test
  void theSpeedLimitAppliesWhenTypedAndIgnoresNonsense(FxRobot robot) {
    ComboBox<?> box = robot.lookup("#speed-limit").queryAs(ComboBox.class);
    robot.clickOn(box.getEditor());
    robot.interact(() -> box.getEditor().setText("3M"));
    robot.type(KeyCode.ENTER);
    robot.interact(() -> box.getEditor().setText("fast"));
    robot.type(KeyCode.ENTER);
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(List.of("limit " + (3 << 20)), actions.calls);
    assertTrue(box.getEditor().getStyleClass().contains("invalid"));
  }

  @Test
  void aDownloadThatFinishesWhileWatchedRaisesANotification(FxRobot robot) {
    coalescer.offer(SnapshotCoalescerTest.snap(7, 10, DownloadState.ACTIVE));
    robot.interact(window::refresh);
    coalescer.offer(SnapshotCoalescerTest.snap(7, 1000, DownloadState.COMPLETED));
    robot.interact(window::refresh);
    assertEquals(1, window.toasts().getChildren().size());
    assertTrue(robot.lookup(".toast-title").queryLabeled().getText().contains("complete"));
  }

  @Test
  void aDroppedListFileOpensTheAddDialogWithItsUrls(FxRobot robot, @TempDir Path tmp) throws Exception {
    Path list = tmp.resolve("urls.txt");
    Files.writeString(list, "https://a.example/1.iso\n  out=one.iso\nhttps://a.example/2.iso\n");
    DropHandler drop = new DropHandler(Runnable::run, window::openAdd, why -> window.problem("drop", why));
    drop.read(List.of(list.toFile()));
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(Files.readString(list) + "\n", robot.lookup("#add-urls").queryAs(TextArea.class).getText());
    robot.clickOn("#add-confirm");
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(List.of("add [https://a.example/1.iso, https://a.example/2.iso]"), actions.calls);
  }

  @Test
  void theAddDialogSaysWhatIsWrongAndWillNotAddIt(FxRobot robot) {
    robot.interact(() -> window.openAdd("https://a.example/1.iso\nftp://b.example/2.iso"));
    WaitForAsyncUtils.waitForFxEvents();
    assertTrue(robot.lookup("#add-confirm").queryButton().isDisabled());
    assertEquals("line 2: not an http(s) URL: ftp://b.example/2.iso", robot.lookup(".form-problem").queryLabeled().getText());
    robot.interact(() -> robot.lookup("#add-urls").queryAs(TextArea.class).setText("https://a.example/1.iso"));
    assertFalse(robot.lookup("#add-confirm").queryButton().isDisabled());
    robot.clickOn("#add-confirm");
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(List.of("add [https://a.example/1.iso]"), actions.calls);
  }

  @Test
  void inOrderIsTickedInTheAddDialogAndReachesTheRequestAsSequential(FxRobot robot) throws Exception {
    robot.interact(() -> window.openAdd("https://a.example/film.mkv"));
    WaitForAsyncUtils.waitForFxEvents();
    robot.clickOn("#add-in-order");
    robot.clickOn("#add-confirm");
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(List.of("add [https://a.example/film.mkv] in order"), actions.calls);
    AddRequest.Entry film = AddRequest.Entry.of("https://a.example/film.mkv");
    assertTrue(AddRequests.of(film, Path.of("dl"), GuiSettings.defaults(), true).sequential());
    assertFalse(AddRequests.of(film, Path.of("dl"), GuiSettings.defaults(), false).sequential());
  }

  @Test
  void theThemeToggleSwitchesStylesheetsAndIsSaved(FxRobot robot) {
    robot.clickOn("#theme-toggle");
    WaitForAsyncUtils.waitForFxEvents();
    assertEquals(Theme.DARK, window.theme());
    assertTrue(window.scene().getStylesheets().get(0).endsWith("dark.css"));
    assertEquals(List.of("settings DARK"), actions.calls);
  }
}
