package dev.braid.gui;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.input.DragEvent;
import javafx.scene.input.Dragboard;
import javafx.scene.input.TransferMode;

/**
 * Drag and drop onto the window: a link or text with URLs, or text files holding a list of URLs.
 * Files are read on a background thread; the resulting text goes to the add dialog. A Metalink
 * file ({@code .meta4}) goes there as its path, which the dialog reads as a Metalink.
 */
final class DropHandler {
  private static final long MAX_LIST_BYTES = 4 << 20;
  private final Executor background;
  private final Consumer<String> onText;
  private final Consumer<String> onProblem;

  /**
   * @param onText FX thread: text with URLs to offer in the add dialog
   * @param onProblem FX thread: a file that could not be read
   */
  DropHandler(Executor background, Consumer<String> onText, Consumer<String> onProblem) {
    this.background = background;
    this.onText = onText;
    this.onProblem = onProblem;
  }

  void install(Node target) {
    target.addEventHandler(DragEvent.DRAG_OVER, this::over);
    target.addEventHandler(DragEvent.DRAG_DROPPED, this::dropped);
  }

  private void over(DragEvent e) {
    Dragboard db = e.getDragboard();
    if (db.hasUrl() || db.hasString() || db.hasFiles()) {
      e.acceptTransferModes(TransferMode.COPY, TransferMode.LINK);
    }
    e.consume();
  }

  private void dropped(DragEvent e) {
    Dragboard db = e.getDragboard();
    boolean accepted = true;
    if (db.hasFiles()) {
      List<File> files = List.copyOf(db.getFiles());
      background.execute(() -> read(files));
    } else if (db.hasUrl()) {
      onText.accept(db.getUrl());
    } else if (db.hasString()) {
      onText.accept(db.getString());
    } else {
      accepted = false;
    }
    e.setDropCompleted(accepted);
    e.consume();
  }

  /** Background thread: the files' text joined, handed to the FX thread. */
  void read(List<File> files) {
    StringBuilder text = new StringBuilder();
    for (File f : files) {
      if (dev.braid.core.Metalink.looksLikeMetalink(f.getName())) {
        text.append(f.getAbsolutePath()).append('\n');
        continue;
      }
      try {
        if (Files.size(f.toPath()) > MAX_LIST_BYTES) {
          throw new IOException("larger than 4 MiB: not a list of URLs");
        }
        text.append(Files.readString(f.toPath(), StandardCharsets.UTF_8)).append('\n');
      } catch (IOException | RuntimeException ex) {
        String why = f.getName() + ": " + ex.getMessage();
        Platform.runLater(() -> onProblem.accept(why));
        return;
      }
    }
    String all = text.toString();
    Platform.runLater(() -> onText.accept(all));
  }
}
