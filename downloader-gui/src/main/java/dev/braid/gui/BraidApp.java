package dev.braid.gui;

import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.rules.RulesFile;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * The desktop app: one window over a {@link Braid} that runs the persistent queue in the shared
 * state database (the same one {@code braid get} uses, unless {@code --state-db=FILE} or {@code --state-db=postgresql://...} says
 * otherwise), serving aria2's JSON-RPC on loopback for browser extensions while open; or, when a
 * {@code braid daemon} runs that queue, a window over the daemon's (see {@link AppEngine}).
 * Closing the window records progress; the next start continues the queue.
 * {@code --metrics-port=N} serves Prometheus metrics on {@code 127.0.0.1:N}; {@code --rules=FILE} reads
 * another rules file than the default one, {@code --no-rules=true} none.
 */
public final class BraidApp extends Application {
  private final SnapshotCoalescer coalescer = new SnapshotCoalescer();
  private AppEngine engine;
  private AppQueue queue;
  private MainWindow window;
  private AppRules rules;

  /** Launcher thread, before the window: opening the store and the client is I/O, kept off the FX thread. */
  @Override
  public void init() throws Exception {
    String db = getParameters().getNamed().get("state-db");
    // a file, or a server database's URL (postgresql://...): the store's provider opens either
    String stateLocation = db != null ? db : Braid.defaultStateDatabase().toString();
    rules = "true".equals(getParameters().getNamed().get("no-rules")) ? AppRules.none()
        : AppRules.load(rulesFile(getParameters().getNamed().get("rules")));
    // an RPC client's shutdown call closes the app, as it would end a daemon
    engine = AppEngine.open(stateLocation, coalescer, metrics(getParameters().getNamed().get("metrics-port")), Platform::exit,
        rules);
    queue = engine.queue();
  }

  /** {@code --rules=FILE}, else the default rules file (the CLI's). */
  static Path rulesFile(String given) {
    return given != null ? Path.of(given) : RulesFile.defaultLocation();
  }

  /** The Prometheus endpoint on loopback at {@code port}, or none when the parameter is absent. */
  static UnaryOperator<BraidBuilder> metrics(String port) {
    if (port == null) {
      return b -> b;
    }
    try {
      int n = Integer.parseInt(port.strip());
      return b -> b.metricsEndpoint(n);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--metrics-port needs a port number, got " + port, e);
    }
  }

  @Override
  public void start(Stage stage) {
    window = new MainWindow(queue, coalescer, queue.background(),
        path -> getHostServices().showDocument(path.toUri().toString()));
    queue.onProblem((title, text) -> Platform.runLater(() -> window.problem(title, text)));
    window.rules(rules);
    engine.notice().ifPresent(text -> window.problem("No aria2 RPC for browser extensions", text));
    stage.setTitle(engine.attached() ? "Braid (the braid daemon's queue)" : "Braid");
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
    if (engine != null) {
      engine.close();
    }
  }

}
