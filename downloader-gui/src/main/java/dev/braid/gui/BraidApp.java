package dev.braid.gui;

import dev.braid.core.Braid;
import java.nio.file.Path;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * The desktop app: one window over a {@link Braid} that runs the persistent queue in the shared
 * state database (the same one {@code braid get} uses, unless {@code --state-db=FILE} says
 * otherwise). Closing the window records progress; the next start continues the queue.
 */
public final class BraidApp extends Application {
  private final SnapshotCoalescer coalescer = new SnapshotCoalescer();
  private BraidQueue queue;
  private MainWindow window;

  /** Launcher thread, before the window: opening the store and the client is I/O, kept off the FX thread. */
  @Override
  public void init() throws Exception {
    String db = getParameters().getNamed().get("state-db");
    Path stateDatabase = db != null ? Path.of(db) : Braid.defaultStateDatabase();
    queue = BraidQueue.open(stateDatabase, coalescer, b -> b);
  }

  @Override
  public void start(Stage stage) {
    window = new MainWindow(queue, coalescer, queue.background(),
        path -> getHostServices().showDocument(path.toUri().toString()));
    queue.onProblem((title, text) -> Platform.runLater(() -> window.problem(title, text)));
    stage.setTitle("Braid");
    stage.getIcons().add(Icons.appIcon());
    stage.setScene(window.scene());
    stage.setMinWidth(760);
    stage.setMinHeight(480);
    stage.show();
    window.start();
  }

  /** FX thread, after the window closed: the pause and the last checkpoint take a moment, with nothing left to draw. */
  @Override
  public void stop() {
    if (window != null) {
      window.stop();
    }
    if (queue != null) {
      queue.close();
    }
  }

}
