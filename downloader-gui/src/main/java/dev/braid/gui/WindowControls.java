package dev.braid.gui;

import dev.braid.store.DownloadState;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;

/**
 * The main window's controls, one place for each action's button, menu item and key: the toolbar,
 * the queue table's context menu and the shortcuts. FX thread only.
 */
final class WindowControls {
  private final QueueTable table;
  private final SelectionActions selection;
  private final Consumer<String> openAdd;
  private final Runnable openSettings;
  private final Runnable toggleTheme;

  /** @param openAdd opens the add dialog with dropped or pasted text, or with null for the clipboard's URL */
  WindowControls(QueueTable table, SelectionActions selection, Consumer<String> openAdd, Runnable openSettings,
      Runnable toggleTheme) {
    this.table = table;
    this.selection = selection;
    this.openAdd = openAdd;
    this.openSettings = openSettings;
    this.toggleTheme = toggleTheme;
  }

  ToolBar toolbar(Node speedLimit) {
    Label brand = new Label("Braid", Icons.logo());
    brand.getStyleClass().add("brand");
    BooleanBinding none = Bindings.isEmpty(table.getSelectionModel().getSelectedItems());
    Button add = button("Add", Icons.add(), "Add downloads (Ctrl+N)", () -> openAdd.accept(null));
    add.getStyleClass().add("accent");
    Button pause = button("Pause", Icons.pause(), "Pause (Ctrl+P)", selection::pause);
    Button resume = button("Resume", Icons.resume(), "Resume or retry (Ctrl+R)", selection::resume);
    Button cancel = button("Cancel", Icons.cancel(), "Cancel (Ctrl+K)", selection::cancel);
    Button remove = button("Remove", Icons.remove(), "Remove from the list (Delete); Shift+Delete also deletes the file",
        () -> selection.remove(false));
    for (Button b : List.of(pause, resume, cancel, remove)) {
      b.disableProperty().bind(none);
    }
    Button themeButton = button(null, Icons.theme(), "Light or dark theme", toggleTheme);
    themeButton.setId("theme-toggle");
    Button settings = button(null, Icons.settings(), "Settings (Ctrl+,)", openSettings);
    settings.setId("settings");
    ToolBar bar = new ToolBar(brand, separator(), add, pause, resume, cancel, remove, spacer(), speedLimit, themeButton,
        settings);
    bar.getStyleClass().add("main-toolbar");
    return bar;
  }

  ContextMenu contextMenu() {
    MenuItem pause = item("Pause", "Shortcut+P", selection::pause);
    MenuItem resume = item("Resume / retry", "Shortcut+R", selection::resume);
    MenuItem cancel = item("Cancel", "Shortcut+K", selection::cancel);
    // Enter, Delete and Ctrl+C belong to the table (its key handler), not to the whole window: as
    // menu accelerators they would also fire from the speed-limit field
    MenuItem openFile = item("Open file    (Enter)", null, () -> selection.open(false));
    MenuItem openFolder = item("Open folder    (Ctrl+Enter)", null, () -> selection.open(true));
    MenuItem copy = item("Copy URL    (Ctrl+C)", null, selection::copyUrls);
    MenuItem newLink = item("New link…", "Shortcut+L", selection::newLink);
    MenuItem remove = item("Remove    (Delete)", null, () -> selection.remove(false));
    MenuItem removeFile = item("Remove and delete file    (Shift+Delete)", null, () -> selection.remove(true));
    ContextMenu menu = new ContextMenu(pause, resume, cancel, new SeparatorMenuItem(), openFile, openFolder, copy, newLink,
        new SeparatorMenuItem(), remove, removeFile);
    menu.setOnShowing(e -> {
      List<DownloadRow> rows = selection.selected();
      pause.setDisable(rows.stream().noneMatch(r -> StateLabels.canPause(r.status())));
      resume.setDisable(rows.stream().noneMatch(r -> StateLabels.canResume(r.status())));
      cancel.setDisable(rows.stream().allMatch(r -> StateLabels.finished(r.status())));
      openFile.setDisable(rows.stream().noneMatch(r -> r.status() == DownloadState.COMPLETED));
      boolean none = rows.isEmpty();
      openFolder.setDisable(none);
      copy.setDisable(none);
      newLink.setDisable(!selection.canTakeNewLink(rows));
      remove.setDisable(none);
      removeFile.setDisable(none);
    });
    return menu;
  }

  void shortcuts(Scene scene) {
    var keys = scene.getAccelerators();
    keys.put(new KeyCodeCombination(KeyCode.N, KeyCombination.SHORTCUT_DOWN), () -> openAdd.accept(null));
    keys.put(new KeyCodeCombination(KeyCode.P, KeyCombination.SHORTCUT_DOWN), selection::pause);
    keys.put(new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN), selection::resume);
    keys.put(new KeyCodeCombination(KeyCode.K, KeyCombination.SHORTCUT_DOWN), selection::cancel);
    keys.put(new KeyCodeCombination(KeyCode.L, KeyCombination.SHORTCUT_DOWN), selection::newLink);
    keys.put(new KeyCodeCombination(KeyCode.COMMA, KeyCombination.SHORTCUT_DOWN), openSettings);
    // paste adds: the add dialog opens with the clipboard's URLs
    keys.put(new KeyCodeCombination(KeyCode.V, KeyCombination.SHORTCUT_DOWN), () -> {
      String text = Clipboard.getSystemClipboard().getString();
      openAdd.accept(text != null && !UrlListParser.singleUrl(text).isPresent() && text.contains("://") ? text : null);
    });
    table.setOnKeyPressed(e -> {
      if (e.getCode() == KeyCode.DELETE) {
        selection.remove(e.isShiftDown());
      } else if (e.getCode() == KeyCode.ENTER) {
        selection.open(e.isShortcutDown());
      } else if (e.getCode() == KeyCode.C && e.isShortcutDown()) {
        selection.copyUrls();
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
      b.setId("action-" + text.toLowerCase(Locale.ROOT));
    }
    return b;
  }

  static Region spacer() {
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
