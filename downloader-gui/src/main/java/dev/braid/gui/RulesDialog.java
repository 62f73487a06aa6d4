package dev.braid.gui;

import dev.braid.core.rules.Rules;
import dev.braid.rules.RulesFileException;
import dev.braid.rules.RulesReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * The rules and categories page: the rules file's text to edit, checked as it is typed (the line
 * and key of a problem), what the rules do to a URL the person tries, and Save, which writes the
 * file only when it reads. The same file the CLI and the daemon read, so it is shown as the text
 * they read, not as a form that could say less than the file can.
 */
final class RulesDialog extends Dialog<Void> {
  static final ButtonType SAVE = new ButtonType("Save", ButtonBar.ButtonData.OK_DONE);

  private final AppRules rules;
  private final TextArea text = new TextArea();
  private final Label status = new Label();
  private final TextField url = new TextField();
  private final TextArea report = new TextArea();
  private Rules checked;

  /**
   * @param current the file's text (or the template), read off the FX thread
   * @param open opens the rules file in the desktop's editor
   */
  RulesDialog(Window owner, AppRules rules, String current, Runnable open) {
    this.rules = rules;
    initOwner(owner);
    setTitle("Rules and categories");
    setHeaderText(null);
    setResizable(true);
    if (owner.getScene() != null) {
      getDialogPane().getStylesheets().setAll(owner.getScene().getStylesheets());
    }
    getDialogPane().getButtonTypes().setAll(SAVE, ButtonType.CANCEL);
    Label where = new Label(rules.file().map(f -> "File: " + f).orElse("No rules file (started without one)"));
    where.setId("rules-file");
    Button openButton = new Button("Open in editor");
    openButton.setId("rules-open");
    openButton.setDisable(rules.file().isEmpty());
    openButton.setOnAction(e -> open.run());
    HBox top = new HBox(10, where, openButton);
    HBox.setHgrow(where, Priority.ALWAYS);
    where.setMaxWidth(Double.MAX_VALUE);
    text.setId("rules-text");
    text.setText(current);
    text.setPrefRowCount(18);
    text.setPrefColumnCount(70);
    text.setStyle("-fx-font-family: monospace");
    status.setId("rules-status");
    status.setWrapText(true);
    url.setId("rules-url");
    url.setPromptText("Try a URL: https://example.com/file.mp4");
    report.setId("rules-report");
    report.setEditable(false);
    report.setPrefRowCount(5);
    Label note = new Label("Explicit choices (a folder picked in Add, an RPC call's options) win over the rules. Proxies"
        + " and per-host connection caps apply from the next start; the rest to downloads added after Save.");
    note.setWrapText(true);
    VBox box = new VBox(8, top, text, status, url, report, note);
    box.setPadding(new Insets(12));
    VBox.setVgrow(text, Priority.ALWAYS);
    getDialogPane().setContent(box);

    Button save = (Button) getDialogPane().lookupButton(SAVE);
    save.setId("rules-save");
    text.textProperty().addListener((o, a, b) -> check(save));
    url.textProperty().addListener((o, a, b) -> showReport());
    check(save);
    save.addEventFilter(javafx.event.ActionEvent.ACTION, e -> {
      try {
        rules.save(text.getText());
      } catch (RulesFileException | IOException ex) {
        status.setText("Not saved: " + ex.getMessage());
        e.consume();
      }
    });
    setResultConverter(b -> null);
  }

  /**
   * Opens the page over {@code owner}: the file is read on {@code background}, the page shown on
   * the FX thread; {@code opener} opens the file in the desktop's editor (on {@code background}).
   */
  static void open(Window owner, AppRules rules, Executor background, Consumer<Path> opener,
      BiConsumer<String, String> problem) {
    background.execute(() -> {
      String text;
      try {
        text = rules.text();
      } catch (IOException e) {
        Platform.runLater(() -> problem.accept("Cannot read the rules file", e.getMessage()));
        return;
      }
      Platform.runLater(() -> new RulesDialog(owner, rules, text,
          () -> rules.file().ifPresent(f -> background.execute(() -> opener.accept(f)))).show());
    });
  }

  private void check(Button save) {
    try {
      checked = rules.check(text.getText());
      status.setText("OK: " + checked.hostRules().size() + " host rules, " + checked.categories().size() + " categories");
      status.getStyleClass().remove("form-problem");
      save.setDisable(rules.file().isEmpty());
    } catch (RulesFileException e) {
      checked = null;
      status.setText(e.getMessage());
      if (!status.getStyleClass().contains("form-problem")) {
        status.getStyleClass().add("form-problem");
      }
      save.setDisable(true);
    }
    showReport();
  }

  private void showReport() {
    String u = url.getText().strip();
    report.setText(u.isEmpty() || checked == null ? "" : String.join("\n", RulesReport.describe(checked, u)));
  }
}
