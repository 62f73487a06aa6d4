package dev.braid.gui;

import dev.braid.store.DownloadState;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.scene.control.TextInputDialog;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;

/**
 * What the toolbar, the context menu and the shortcuts do to the downloads selected in the queue
 * table, through {@link QueueActions}. FX thread only; opening files runs on {@code background}.
 */
final class SelectionActions {
  private final QueueActions actions;
  private final QueueTable table;
  private final Executor background;
  private final Consumer<Path> opener;
  private final Supplier<Scene> scene;

  SelectionActions(QueueActions actions, QueueTable table, Executor background, Consumer<Path> opener, Supplier<Scene> scene) {
    this.actions = actions;
    this.table = table;
    this.background = background;
    this.opener = opener;
    this.scene = scene;
  }

  List<DownloadRow> selected() {
    return List.copyOf(table.getSelectionModel().getSelectedItems());
  }

  private List<Long> selectedIds() {
    return table.getSelectionModel().getSelectedItems().stream().filter(Objects::nonNull).map(DownloadRow::id).toList();
  }

  void pause() {
    actions.pause(selectedIds());
  }

  void resume() {
    actions.resume(selectedIds());
  }

  void cancel() {
    actions.cancel(selectedIds());
  }

  /** Removes the selected downloads; deleting their files too only once the person confirms. */
  void remove(boolean deleteFiles) {
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
    confirm.initOwner(scene.get().getWindow());
    confirm.setHeaderText(null);
    confirm.getDialogPane().getStylesheets().setAll(scene.get().getStylesheets());
    confirm.setOnHidden(e -> {
      if (confirm.getResult() == ButtonType.OK) {
        actions.remove(ids, true);
      }
    });
    confirm.show();
  }

  /** Opens each selected completed file, or the folder of each selected download. */
  void open(boolean folder) {
    for (DownloadRow r : selected()) {
      String file = r.snapshot().file();
      if (file == null) {
        continue;
      }
      Path p = Path.of(file);
      Path target = folder || r.status() != DownloadState.COMPLETED ? p.toAbsolutePath().getParent() : p;
      if (target != null) {
        background.execute(() -> opener.accept(target));
      }
    }
  }

  /** Whether {@link #newLink} applies: exactly one unfinished download is selected. */
  boolean canTakeNewLink(List<DownloadRow> rows) {
    return rows.size() == 1 && rows.get(0).status() != DownloadState.COMPLETED;
  }

  /** An expired link's replacement for the one selected unfinished download, asked for in a dialog. */
  void newLink() {
    List<DownloadRow> rows = selected();
    if (!canTakeNewLink(rows)) {
      return;
    }
    DownloadRow row = rows.get(0);
    String current = row.snapshot().url();
    TextInputDialog ask = new TextInputDialog(current);
    ask.initOwner(scene.get().getWindow());
    ask.setTitle("New link");
    ask.setHeaderText("A new link for the same file, such as a fresh signed URL: the bytes already\n"
        + "downloaded are kept only if it proves to serve the same file.");
    ask.getEditor().setId("new-link-url");
    ask.showAndWait().map(String::strip).filter(u -> !u.isEmpty() && !u.equals(current))
        .ifPresent(u -> actions.changeLink(row.id(), u));
  }

  void copyUrls() {
    ClipboardContent c = new ClipboardContent();
    c.putString(String.join("\n", selected().stream().map(r -> r.snapshot().url()).toList()));
    Clipboard.getSystemClipboard().setContent(c);
  }
}
