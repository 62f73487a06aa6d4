package dev.braid.gui;

import dev.braid.store.DownloadState;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.input.Clipboard;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.stage.Window;
import javafx.util.Duration;

/**
 * The main window's content and behaviour: queue table, detail pane, status bar and notifications,
 * wired to {@link QueueActions}; its controls are {@link WindowControls}, acting on the selection
 * through {@link SelectionActions}. It reads the engine's state only from the
 * coalescer, on a 4 Hz timeline.
 */
final class MainWindow {
  private static final Duration FRAME = Duration.millis(250);
  private static final int FRAMES_PER_SAMPLE = 4;

  private final QueueActions actions;
  private final SnapshotCoalescer coalescer;
  private final Executor background;
  private final Consumer<Path> opener;
  private final QueueModel model;
  private final QueueTable table;
  private final DetailPane detail;
  private final Toasts toasts = new Toasts();
  private final LinkOffer linkOffer = new LinkOffer(toasts, this::addCopied);
  private final ClipboardCapture clipboard = new ClipboardCapture(() -> Clipboard.getSystemClipboard().getString(),
      linkOffer::show);
  private AppRules rules = AppRules.none();
  private final Label statusLeft = new Label();
  private final Label statusRight = new Label();
  private final SpeedLimitControl limit;
  private final Scene scene;
  private final Timeline timeline;
  private Theme theme;
  private int frame;

  /**
   * @param background runs file reads (dropped lists) and opening files off the FX thread
   * @param opener opens a file or folder with the desktop's application (called on {@code background})
   */
  MainWindow(QueueActions actions, SnapshotCoalescer coalescer, Executor background, Consumer<Path> opener) {
    this.actions = actions;
    this.coalescer = coalescer;
    this.background = background;
    this.opener = opener;
    this.model = new QueueModel(this::finished);
    this.table = new QueueTable(model.rows());
    this.detail = new DetailPane(model);
    GuiSettings settings = actions.settings();
    this.limit = new SpeedLimitControl(settings.speedLimit(), this::speedLimit);

    WindowControls controls = new WindowControls(table,
        new SelectionActions(actions, table, background, opener, this::scene), this::openAdd, this::openSettings,
        this::toggleTheme);
    table.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> detail.select(b));
    table.setContextMenu(controls.contextMenu());
    SplitPane split = new SplitPane(table, detail);
    split.setOrientation(Orientation.VERTICAL);
    split.setDividerPositions(0.52);
    SplitPane.setResizableWithParent(detail, false);

    statusLeft.setId("status-left");
    statusRight.setId("status-right");
    HBox statusBar = new HBox(statusLeft, WindowControls.spacer(), statusRight);
    statusBar.getStyleClass().add("status-bar");
    statusBar.setAlignment(Pos.CENTER_LEFT);

    BorderPane layout = new BorderPane(split, controls.toolbar(limit), null, statusBar, null);
    StackPane root = new StackPane(layout, toasts);
    root.getStyleClass().add("braid-root");
    StackPane.setAlignment(toasts, Pos.BOTTOM_RIGHT);
    scene = new Scene(root, 1180, 760);
    controls.shortcuts(scene);
    theme(settings.theme());
    new DropHandler(background, this::openAdd, why -> toasts.show(Toasts.Kind.ERROR, "Cannot read the dropped file", why)).install(root);

    timeline = new Timeline(new KeyFrame(FRAME, e -> refresh()));
    timeline.setCycleCount(Animation.INDEFINITE);
    clipboard.enabled(settings.clipboard());
  }

  /** FX thread: the rules file that the Add dialog's default folder and the rules page use. */
  void rules(AppRules r) {
    this.rules = r;
    r.problem().ifPresent(why -> problem("The rules file is not used", why));
  }

  ClipboardCapture clipboard() {
    return clipboard;
  }

  Scene scene() {
    return scene;
  }

  QueueModel model() {
    return model;
  }

  QueueTable table() {
    return table;
  }

  DetailPane detail() {
    return detail;
  }

  Toasts toasts() {
    return toasts;
  }

  void start() {
    refresh();
    timeline.play();
  }

  void stop() {
    timeline.stop();
    clipboard.enabled(false);
  }

  /** FX thread: one frame: apply what arrived, once a second move the graphs. */
  void refresh() {
    SnapshotCoalescer.Batch batch = coalescer.drain();
    if (!batch.isEmpty()) {
      model.apply(batch);
    }
    if (++frame % FRAMES_PER_SAMPLE == 0) {
      model.sample();
      detail.tick();
    }
    statusLeft.setText(String.format("↓ %s   ·   %d downloading   ·   %d queued   ·   %d paused   ·   %d completed   ·   %d failed",
        model.totalSpeedProperty().get() > 0 ? Formats.speed(model.totalSpeedProperty().get()) : "0 B/s",
        model.count(DownloadState.ACTIVE), model.count(DownloadState.QUEUED), model.count(DownloadState.PAUSED),
        model.count(DownloadState.COMPLETED), model.count(DownloadState.FAILED)));
    statusRight.setText("Speed limit: " + Formats.rate(limit.current()));
  }

  /** FX thread: an error from the engine for the person to see. */
  void problem(String title, String text) {
    toasts.show(Toasts.Kind.ERROR, title, text);
  }

  void theme(Theme t) {
    theme = t;
    t.applyTo(scene);
    Palette p = Palette.of(t);
    detail.segmentMap().paletteProperty().set(p);
    detail.speedGraph().paletteProperty().set(p);
  }

  Theme theme() {
    return theme;
  }

  /** Opens the add dialog, with {@code text} (dropped URLs) or the clipboard's URL. */
  void openAdd(String text) {
    AddDialog dialog = new AddDialog(window(), actions.settings().folder(), text);
    dialog.setOnHidden(e -> {
      AddRequest r = dialog.getResult();
      if (r != null) {
        add(r);
      }
    });
    dialog.show();
  }

  /** The request as the queue gets it: where it asks for the default folder, each link's category chooses. */
  private void add(AddRequest r) {
    for (AddRequest part : rules.byCategory(r, actions.settings().folder())) {
      actions.add(part);
    }
  }

  /** A copied link the person chose to download from its offer. */
  private void addCopied(String url) {
    add(new AddRequest(List.of(AddRequest.Entry.of(url)), actions.settings().folder()));
  }

  void openRules() {
    RulesDialog.open(window(), rules, background, opener, this::problem);
  }

  void openSettings() {
    SettingsDialog dialog = new SettingsDialog(window(), actions.settings(), this::openRules);
    dialog.setOnHidden(e -> {
      GuiSettings s = dialog.getResult();
      if (s != null) {
        actions.saveSettings(s);
        clipboard.enabled(s.clipboard());
        limit.show(s.speedLimit());
        theme(s.theme());
      }
    });
    dialog.show();
  }

  private Window window() {
    return scene.getWindow();
  }

  private void speedLimit(long bps) {
    actions.speedLimit(bps);
  }

  private void finished(DownloadSnapshot s) {
    if (s.status() == DownloadState.COMPLETED) {
      toasts.show(Toasts.Kind.SUCCESS, "Download complete", s.name() + " · " + Formats.bytes(s.length()));
    } else {
      toasts.show(Toasts.Kind.ERROR, "Download failed", s.name() + (s.error() != null ? ": " + s.error() : ""));
    }
  }

  private void toggleTheme() {
    Theme next = theme == Theme.DARK ? Theme.LIGHT : Theme.DARK;
    theme(next);
    actions.saveSettings(actions.settings().withTheme(next));
  }
}
