package dev.braid.gui;

import java.io.File;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * The add dialog: URLs (one per line, or a {@code -i} style list), the folder, for a single file
 * an expected checksum and mirrors, and whether to fetch in order; or a Metalink (a {@code .meta4} file or URL), whose files
 * it adds. It opens with the clipboard's URL when there is one.
 */
final class AddDialog extends Dialog<AddRequest> {
  static final ButtonType ADD = new ButtonType("Add", ButtonBar.ButtonData.OK_DONE);
  private final TextArea urls = new TextArea();
  private final TextField folder = new TextField();
  private final TextField checksum = new TextField();
  private final TextArea mirrors = new TextArea();
  private final CheckBox inOrder = new CheckBox("Download in order, to play while it downloads");
  private final Label problem = new Label();

  /** @param initialText URLs to start with (a drop), or null to look at the clipboard */
  AddDialog(Window owner, java.nio.file.Path defaultFolder, String initialText) {
    initOwner(owner);
    setTitle("Add downloads");
    setHeaderText(null);
    getDialogPane().getStyleClass().add("add-dialog");
    getDialogPane().getStylesheets().setAll(owner.getScene().getStylesheets());
    getDialogPane().getButtonTypes().setAll(ADD, ButtonType.CANCEL);

    urls.setId("add-urls");
    urls.setPromptText("https://example.org/file.iso\nOne URL per line; URLs on one line are mirrors of one file.\nIndented lines: out=NAME, checksum=sha-256=HEX\nOr a Metalink: a .meta4 file or URL");
    urls.setPrefRowCount(6);
    urls.setPrefColumnCount(48);
    String start = initialText != null ? initialText : UrlListParser.singleUrl(Clipboard.getSystemClipboard().getString()).orElse("");
    urls.setText(start);
    folder.setId("add-folder");
    folder.setText(defaultFolder.toString());
    Button browse = new Button("Browse…");
    browse.setOnAction(e -> chooseFolder());
    HBox.setHgrow(folder, Priority.ALWAYS);
    Button metalink = new Button("Metalink…");
    metalink.setId("add-metalink");
    metalink.setOnAction(e -> chooseMetalink());
    checksum.setId("add-checksum");
    checksum.setPromptText("optional, e.g. sha-256=9f86d081884c7d65…");
    mirrors.setId("add-mirrors");
    mirrors.setPromptText("optional: more URLs of the same file, one per line");
    mirrors.setPrefRowCount(2);
    inOrder.setId("add-in-order");
    inOrder.setTooltip(new Tooltip("From the first byte on, as braid get --sequential: the file plays while it grows."
        + " A Metalink's files are fetched as usual."));
    problem.getStyleClass().add("form-problem");
    problem.setWrapText(true);

    GridPane grid = new GridPane();
    grid.setHgap(10);
    grid.setVgap(10);
    grid.setPadding(new Insets(16));
    grid.addRow(0, new Label("URLs"), urls, metalink);
    grid.addRow(1, new Label("Folder"), new HBox(6, folder, browse));
    grid.addRow(2, new Label("Checksum"), checksum);
    grid.addRow(3, new Label("Mirrors"), mirrors);
    grid.add(inOrder, 1, 4);
    grid.add(problem, 1, 5);
    getDialogPane().setContent(grid);

    Button add = (Button) getDialogPane().lookupButton(ADD);
    add.setId("add-confirm");
    for (var field : new javafx.scene.control.TextInputControl[] {urls, folder, checksum, mirrors}) {
      field.textProperty().addListener((o, a, b) -> validate(add));
    }
    validate(add);
    setResultConverter(b -> b == ADD ? request() : null);
    setOnShown(e -> urls.requestFocus());
  }

  private AddRequest request() {
    return AddForm.build(urls.getText(), folder.getText(), checksum.getText(), mirrors.getText())
        .inOrder(inOrder.isSelected());
  }

  private void validate(Button add) {
    try {
      request();
      problem.setText("");
      add.setDisable(false);
    } catch (IllegalArgumentException e) {
      // an empty form is not yet an error worth shouting about
      problem.setText(urls.getText().isBlank() ? "" : e.getMessage());
      add.setDisable(true);
    }
  }

  /** The chosen file's path goes in the URL field, where the form reads it as a Metalink. */
  private void chooseMetalink() {
    FileChooser chooser = new FileChooser();
    chooser.setTitle("Metalink file");
    chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("Metalink 4", "*.meta4", "*.metalink"));
    File chosen = chooser.showOpenDialog(getOwner());
    if (chosen != null) {
      urls.setText(chosen.getPath());
    }
  }

  private void chooseFolder() {
    DirectoryChooser chooser = new DirectoryChooser();
    chooser.setTitle("Download folder");
    File current = new File(folder.getText());
    if (current.isDirectory()) {
      chooser.setInitialDirectory(current);
    }
    File chosen = chooser.showDialog(getOwner());
    if (chosen != null) {
      folder.setText(chosen.getPath());
    }
  }
}
