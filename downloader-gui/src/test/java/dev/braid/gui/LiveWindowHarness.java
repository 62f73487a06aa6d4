package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.braid.core.Braid;
import dev.braid.testserver.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real thing per test: a loopback {@link TestServer}, a state database in a temporary folder,
 * the window's {@link ClientQueue} over the app's own engine on it (as {@link AppEngine} opens it
 * when no daemon runs), and the main window on a headless stage.
 */
abstract class LiveWindowHarness {
  @TempDir Path dir;
  TestServer server;
  SnapshotCoalescer coalescer;
  ClientQueue queue;
  MainWindow window;
  Stage stage;
  /** The rules file the app's engine applies to each add; a test sets it before {@link #open}. */
  AppRules rules = AppRules.none();

  /** Each test class calls this from its own {@code @Start} method: TestFX looks only at the test class's own methods. */
  void open(Stage stage) throws Exception {
    this.stage = stage;
    server = TestServer.start();
    // the folder setting is stored before the first start, as a person would have chosen it
    try (Braid b = Braid.builder().stateDatabase(db()).build()) {
      b.saveSetting(GuiSettings.FOLDER, downloads().toString());
    }
    openWindow();
    stage.show();
  }

  @AfterEach
  void stop() {
    if (window != null) {
      WaitForAsyncUtils.asyncFx(window::stop);
    }
    if (queue != null) {
      queue.close();
    }
    server.close();
  }

  Path db() {
    return dir.resolve("state.db");
  }

  Path downloads() {
    return dir.resolve("downloads");
  }

  /** Opens a queue on the test's database and a window over it (FX thread, as the app's start). */
  void openWindow() throws Exception {
    coalescer = new SnapshotCoalescer();
    SettingsStore store = new SettingsStore(db().toString());
    queue = AppEngine.own(db().toString(), store.load(), store, rules, b -> b.readTimeout(Duration.ofSeconds(2))
        .connectTimeout(Duration.ofSeconds(2)).firstBackoff(Duration.ofMillis(20)).checkpointInterval(Duration.ofMillis(200))
        .maxRetries(1), coalescer, new java.util.concurrent.atomic.AtomicReference<>());
    Runnable show = () -> {
      window = new MainWindow(queue, coalescer, queue.background(), p -> {});
      queue.onProblem((t, m) -> Platform.runLater(() -> window.problem(t, m)));
      stage.setScene(window.scene());
      window.start();
    };
    if (Platform.isFxApplicationThread()) {
      show.run();
    } else {
      WaitForAsyncUtils.asyncFx(show).get();
    }
  }

  /** Waits (bounded) until the row for {@code url} exists and satisfies {@code condition}; returns it. */
  DownloadRow awaitRow(String url, Predicate<DownloadRow> condition, int seconds) throws Exception {
    return awaitRow(url, condition, seconds, false);
  }

  /** @param failedBefore the row is failed now (a retry): a failure is not final until it left that state */
  DownloadRow awaitRow(String url, Predicate<DownloadRow> condition, int seconds, boolean failedBefore) throws Exception {
    DownloadRow[] found = new DownloadRow[1];
    try {
      WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() -> {
        for (DownloadRow r : window.table().getItems()) {
          if (r.snapshot().url().equals(url) && condition.test(r)) {
            found[0] = r;
            return true;
          }
          if (!failedBefore && r.snapshot().url().equals(url) && r.status() == DownloadState.FAILED) {
            // an unexpected failure will not turn into the awaited state: say why at once
            throw new AssertionError("failed: " + r.snapshot().error());
          }
        }
        return false;
      }).get());
    } catch (java.util.concurrent.TimeoutException e) {
      String rows = WaitForAsyncUtils.asyncFx(() -> window.table().getItems().stream().map(r -> r.snapshot().toString()).toList()).get().toString();
      throw new AssertionError("no row for " + url + " as expected within " + seconds + " s; rows: " + rows);
    }
    assertNotNull(found[0]);
    return found[0];
  }

  void select(FxRobot robot, DownloadRow row) {
    robot.interact(() -> {
      window.table().getSelectionModel().clearSelection();
      window.table().getSelectionModel().select(row);
      window.table().requestFocus();
    });
  }

  /** Adds through the dialog: the URL goes on the clipboard, Ctrl+N opens the dialog with it, Add confirms. */
  void addThroughDialog(FxRobot robot, String url) {
    robot.interact(() -> {
      javafx.scene.input.ClipboardContent c = new javafx.scene.input.ClipboardContent();
      c.putString(url);
      javafx.scene.input.Clipboard.getSystemClipboard().setContent(c);
    });
    robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.N)
        .release(javafx.scene.input.KeyCode.N, javafx.scene.input.KeyCode.CONTROL);
    WaitForAsyncUtils.waitForFxEvents();
    robot.clickOn("#add-confirm");
  }
}
