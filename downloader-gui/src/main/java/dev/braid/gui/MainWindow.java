package dev.braid.gui;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.stage.Window;
import javafx.util.Duration;

/**
 * The main window's content and behaviour: toolbar, queue table, detail pane, status bar and
 * notifications, wired to {@link QueueActions}. It reads the engine's state only from the
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

    table.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> detail.select(b));
    table.setContextMenu(contextMenu());
    SplitPane split = new SplitPane(table, detail);
    split.setOrientation(Orientation.VERTICAL);
    split.setDividerPositions(0.52);
    SplitPane.setResizableWithParent(detail, false);

    statusLeft.setId("status-left");
    statusRight.setId("status-right");
    HBox statusBar = new HBox(statusLeft, spacer(), statusRight);
    statusBar.getStyleClass().add("status-bar");
    statusBar.setAlignment(Pos.CENTER_LEFT);

    BorderPane layout = new BorderPane(split, toolbar(), null, statusBar, null);
    StackPane root = new StackPane(layout, toasts);
    root.getStyleClass().add("braid-root");
    StackPane.setAlignment(toasts, Pos.BOTTOM_RIGHT);
    scene = new Scene(root, 1180, 760);
    shortcuts();
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
        model.count(DownloadStatus.ACTIVE), model.count(DownloadStatus.QUEUED), model.count(DownloadStatus.PAUSED),
        model.count(DownloadStatus.COMPLETED), model.count(DownloadStatus.FAILED)));
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
    if (s.status() == DownloadStatus.COMPLETED) {
      toasts.show(Toasts.Kind.SUCCESS, "Download complete", s.name() + " · " + Formats.bytes(s.length()));
    } else {
      toasts.show(Toasts.Kind.ERROR, "Download failed", s.name() + (s.error() != null ? ": " + s.error() : ""));
    }
  }

  private List<Long> selectedIds() {
    return table.getSelectionModel().getSelectedItems().stream().filter(java.util.Objects::nonNull).map(DownloadRow::id).toList();
  }

  private List<DownloadRow> selected() {
    return List.copyOf(table.getSelectionModel().getSelectedItems());
  }

  private void pause() {
    actions.pause(selectedIds());
  }

  private void resume() {
    actions.resume(selectedIds());
  }

  private void cancel() {
    actions.cancel(selectedIds());
  }

  private void remove(boolean deleteFiles) {
    List<Long> ids = selectedIds();
    if (ids.isEmpty()) {
      return;
    }
    if (!deleteFiles) {
      actions.remove(ids, false);
      return;
    }
    Alert confirm = new Alert(Alert.AlertType.CONFIRMATION,
        "Remove " + ids.size() + (ids.size() == 1 ? " download" : " downloads") + " and delete the files from disk?",
        ButtonType.OK, ButtonType.CANCEL);
    confirm.initOwner(window());
    confirm.setHeaderText(null);
    confirm.getDialogPane().getStylesheets().setAll(scene.getStylesheets());
    confirm.setOnHidden(e -> {
      if (confirm.getResult() == ButtonType.OK) {
        actions.remove(ids, true);
      }
    });
    confirm.show();
  }

  private void open(boolean folder) {
    for (DownloadRow r : selected()) {
      String file = r.snapshot().file();
      if (file == null) {
        continue;
      }
      Path p = Path.of(file);
      Path target = folder || r.status() != DownloadStatus.COMPLETED ? p.toAbsolutePath().getParent() : p;
      if (target != null) {
        background.execute(() -> opener.accept(target));
      }
    }
  }

  /** An expired link's replacement for the one selected unfinished download, asked for in a dialog. */
  private void newLink() {
    List<DownloadRow> rows = selected();
    if (rows.size() != 1 || rows.get(0).status() == DownloadStatus.COMPLETED) {
      return;
    }
    DownloadRow row = rows.get(0);
    String current = row.snapshot().url();
    javafx.scene.control.TextInputDialog ask = new javafx.scene.control.TextInputDialog(current);
    ask.initOwner(window());
    ask.setTitle("New link");
    ask.setHeaderText("A new link for the same file, such as a fresh signed URL: the bytes already\n"
        + "downloaded are kept only if it proves to serve the same file.");
    ask.getEditor().setId("new-link-url");
    ask.showAndWait().map(String::strip).filter(u -> !u.isEmpty() && !u.equals(current))
        .ifPresent(u -> actions.changeLink(row.id(), u));
  }

  private void copyUrls() {
    ClipboardContent c = new ClipboardContent();
    c.putString(String.join("\n", selected().stream().map(r -> r.snapshot().url()).toList()));
    Clipboard.getSystemClipboard().setContent(c);
  }

  private ToolBar toolbar() {
    Label brand = new Label("Braid", Icons.logo());
    brand.getStyleClass().add("brand");
    BooleanBinding none = Bindings.isEmpty(table.getSelectionModel().getSelectedItems());
    Button add = button("Add", Icons.add(), "Add downloads (Ctrl+N)", () -> openAdd(null));
    add.getStyleClass().add("accent");
    Button pause = button("Pause", Icons.pause(), "Pause (Ctrl+P)", this::pause);
    Button resume = button("Resume", Icons.resume(), "Resume or retry (Ctrl+R)", this::resume);
    Button cancel = button("Cancel", Icons.cancel(), "Cancel (Ctrl+K)", this::cancel);
    Button remove = button("Remove", Icons.remove(), "Remove from the list (Delete); Shift+Delete also deletes the file", () -> remove(false));
    for (Button b : List.of(pause, resume, cancel, remove)) {
      b.disableProperty().bind(none);
    }
    Button themeButton = button(null, Icons.theme(), "Light or dark theme", this::toggleTheme);
    themeButton.setId("theme-toggle");
    Button settings = button(null, Icons.settings(), "Settings (Ctrl+,)", this::openSettings);
    settings.setId("settings");
    ToolBar bar = new ToolBar(brand, separator(), add, pause, resume, cancel, remove, spacer(), limit, themeButton, settings);
    bar.getStyleClass().add("main-toolbar");
    return bar;
  }

  private void toggleTheme() {
    Theme next = theme == Theme.DARK ? Theme.LIGHT : Theme.DARK;
    theme(next);
    actions.saveSettings(actions.settings().withTheme(next));
  }

  private ContextMenu contextMenu() {
    MenuItem pause = item("Pause", "Shortcut+P", this::pause);
    MenuItem resume = item("Resume / retry", "Shortcut+R", this::resume);
    MenuItem cancel = item("Cancel", "Shortcut+K", this::cancel);
    // Enter, Delete and Ctrl+C belong to the table (its key handler), not to the whole window: as
    // menu accelerators they would also fire from the speed-limit field
    MenuItem openFile = item("Open file    (Enter)", null, () -> open(false));
    MenuItem openFolder = item("Open folder    (Ctrl+Enter)", null, () -> open(true));
    MenuItem copy = item("Copy URL    (Ctrl+C)", null, this::copyUrls);
    MenuItem newLink = item("New link…", "Shortcut+L", this::newLink);
    MenuItem remove = item("Remove    (Delete)", null, () -> remove(false));
    MenuItem removeFile = item("Remove and delete file    (Shift+Delete)", null, () -> remove(true));
    ContextMenu menu = new ContextMenu(pause, resume, cancel, new SeparatorMenuItem(), openFile, openFolder, copy, newLink,
        new SeparatorMenuItem(), remove, removeFile);
    menu.setOnShowing(e -> {
      List<DownloadRow> rows = selected();
      pause.setDisable(rows.stream().noneMatch(r -> r.status().canPause()));
      resume.setDisable(rows.stream().noneMatch(r -> r.status().canResume()));
      cancel.setDisable(rows.stream().allMatch(r -> r.status().finished()));
      openFile.setDisable(rows.stream().noneMatch(r -> r.status() == DownloadStatus.COMPLETED));
      boolean none = rows.isEmpty();
      openFolder.setDisable(none);
      copy.setDisable(none);
      newLink.setDisable(rows.size() != 1 || rows.get(0).status() == DownloadStatus.COMPLETED);
      remove.setDisable(none);
      removeFile.setDisable(none);
    });
    return menu;
  }

  private void shortcuts() {
    var keys = scene.getAccelerators();
    keys.put(new KeyCodeCombination(KeyCode.N, KeyCombination.SHORTCUT_DOWN), () -> openAdd(null));
    keys.put(new KeyCodeCombination(KeyCode.P, KeyCombination.SHORTCUT_DOWN), this::pause);
    keys.put(new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN), this::resume);
    keys.put(new KeyCodeCombination(KeyCode.K, KeyCombination.SHORTCUT_DOWN), this::cancel);
    keys.put(new KeyCodeCombination(KeyCode.L, KeyCombination.SHORTCUT_DOWN), this::newLink);
    keys.put(new KeyCodeCombination(KeyCode.COMMA, KeyCombination.SHORTCUT_DOWN), this::openSettings);
    // paste adds: the add dialog opens with the clipboard's URLs
    keys.put(new KeyCodeCombination(KeyCode.V, KeyCombination.SHORTCUT_DOWN), () -> {
      String text = Clipboard.getSystemClipboard().getString();
      openAdd(text != null && !UrlListParser.singleUrl(text).isPresent() && text.contains("://") ? text : null);
    });
    table.setOnKeyPressed(e -> {
      if (e.getCode() == KeyCode.DELETE) {
        remove(e.isShiftDown());
      } else if (e.getCode() == KeyCode.ENTER) {
        open(e.isShortcutDown());
      } else if (e.getCode() == KeyCode.C && e.isShortcutDown()) {
        copyUrls();
      } else {
        return;
      }
      e.consume();
    });
  }

  private static MenuItem item(String text, String accelerator, Runnable action) {
    MenuItem i = new MenuItem(text);
    if (accelerator != null) {
      i.setAccelerator(KeyCombination.valueOf(accelerator));
    }
    i.setOnAction(e -> action.run());
    return i;
  }

  private static Button button(String text, Node icon, String tip, Runnable action) {
    Button b = new Button(text, icon);
    b.setTooltip(new Tooltip(tip));
    b.setOnAction(e -> action.run());
    b.setFocusTraversable(false);
    if (text != null) {
      b.setId("action-" + text.toLowerCase(java.util.Locale.ROOT));
    }
    return b;
  }

  private static Region spacer() {
    Region r = new Region();
    HBox.setHgrow(r, Priority.ALWAYS);
    return r;
  }

  private static Node separator() {
    Region r = new Region();
    r.getStyleClass().add("toolbar-gap");
    return r;
  }
}
