package dev.braid.gui;

import java.io.File;
import java.nio.file.Path;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.DirectoryChooser;
import javafx.stage.Window;
import javafx.util.StringConverter;

/** Edits {@link GuiSettings}; the caller stores the result through the queue. */
final class SettingsDialog extends Dialog<GuiSettings> {
  private final TextField folder = new TextField();
  private final Spinner<Integer> maxActive = new Spinner<>(1, 50, 3);
  private final Spinner<Integer> perDownload = new Spinner<>(1, 64, 16);
  private final Spinner<Integer> total = new Spinner<>(1, 512, 64);
  private final TextField speedLimit = new TextField();
  private final ChoiceBox<Theme> theme = new ChoiceBox<>(FXCollections.observableArrayList(Theme.values()));
  private final CheckBox rpc = new CheckBox();
  private final Spinner<Integer> rpcPort = new Spinner<>(1, 65535, 6800);
  private final TextField runWindows = new TextField();
  private final TextField speedSchedule = new TextField();
  private final TextField onComplete = new TextField();
  private final TextField onError = new TextField();
  private final TextField webhook = new TextField();
  private final CheckBox clipboard = new CheckBox("Offer copied links for download (clipboard capture)");
  private final Label problem = new Label();

  /** @param openRules opens the rules and categories page (over this dialog) */
  SettingsDialog(Window owner, GuiSettings current, Runnable openRules) {
    initOwner(owner);
    setTitle("Settings");
    setHeaderText(null);
    getDialogPane().getStylesheets().setAll(owner.getScene().getStylesheets());
    getDialogPane().getButtonTypes().setAll(ButtonType.OK, ButtonType.CANCEL);
    folder.setId("settings-folder");
    folder.setText(current.folder().toString());
    maxActive.setId("settings-max-active");
    maxActive.getValueFactory().setValue(current.maxActive());
    perDownload.setId("settings-per-download");
    perDownload.getValueFactory().setValue(current.connectionsPerDownload());
    total.setId("settings-total");
    total.getValueFactory().setValue(current.connectionsTotal());
    rpc.setId("settings-rpc");
    rpc.setSelected(current.rpc());
    rpcPort.setId("settings-rpc-port");
    rpcPort.getValueFactory().setValue(current.rpcPort());
    clipboard.setId("settings-clipboard");
    clipboard.setSelected(current.clipboard());
    rpc.textProperty().bind(rpcPort.valueProperty().asString(
        "Accept downloads from browser extensions (aria2 RPC on 127.0.0.1:%d), applies at next start"));
    for (Spinner<Integer> s : java.util.List.of(maxActive, perDownload, total, rpcPort)) {
      s.setEditable(true);
      s.setPrefWidth(100);
    }
    speedLimit.setId("settings-speed-limit");
    speedLimit.setText(Formats.rate(current.speedLimit()));
    speedLimit.setPromptText("unlimited, 500K, 4M …");
    theme.setId("settings-theme");
    theme.setValue(current.theme());
    theme.setConverter(new StringConverter<>() {
      @Override
      public String toString(Theme t) {
        return t == null ? "" : t == Theme.DARK ? "Dark" : "Light";
      }

      @Override
      public Theme fromString(String s) {
        return Theme.parse(s);
      }
    });
    AutomationSettings auto = current.automation();
    field(runWindows, "settings-run-windows", auto.runWindows(), "always, or e.g. Mon-Fri 01:00-07:00, Sat+Sun 00:00-24:00");
    field(speedSchedule, "settings-speed-schedule", auto.speedSchedule(), "none, or e.g. 09:00-18:00=2M,18:00-09:00=0");
    field(onComplete, "settings-on-complete", auto.onComplete(), "a command, given gid, 1, file path");
    field(onError, "settings-on-error", auto.onError(), "a command, given gid, 1, file path");
    field(webhook, "settings-webhook", auto.webhook(), "a URL the events are POSTed to as JSON");
    problem.getStyleClass().add("form-problem");
    Button browse = new Button("Browse…");
    browse.setOnAction(e -> chooseFolder());
    HBox.setHgrow(folder, Priority.ALWAYS);

    GridPane grid = new GridPane();
    grid.setHgap(10);
    grid.setVgap(10);
    grid.setPadding(new Insets(16));
    grid.addRow(0, new Label("Download folder"), new HBox(6, folder, browse));
    grid.addRow(1, new Label("Active downloads at once"), maxActive);
    grid.addRow(2, new Label("Connections per download (max)"), perDownload);
    grid.addRow(3, new Label("Connections in total (max, from next start)"), total);
    grid.addRow(4, new Label("Global speed limit"), speedLimit);
    grid.addRow(5, new Label("Theme"), theme);
    grid.add(rpc, 0, 6, 2, 1);
    grid.addRow(7, new Label("RPC port (also where a braid daemon is looked for)"), rpcPort);
    grid.addRow(8, new Label("Run the queue only in (local time)"), runWindows);
    grid.addRow(9, new Label("Speed limits by time of day"), speedSchedule);
    grid.addRow(10, new Label("When a download completes, run (from next start)"), onComplete);
    grid.addRow(11, new Label("When a download fails, run (from next start)"), onError);
    grid.addRow(12, new Label("Webhook URL (from next start)"), webhook);
    grid.add(clipboard, 0, 13, 2, 1);
    Button rules = new Button("Rules and categories…");
    rules.setId("settings-rules");
    rules.setOnAction(e -> openRules.run());
    grid.addRow(14, new Label("Per-host rules and download folders by type"), rules);
    grid.add(problem, 1, 15);
    getDialogPane().setContent(grid);

    Button ok = (Button) getDialogPane().lookupButton(ButtonType.OK);
    ok.setId("settings-ok");
    speedLimit.textProperty().addListener((o, a, b) -> validate(ok));
    folder.textProperty().addListener((o, a, b) -> validate(ok));
    for (TextField f : java.util.List.of(runWindows, speedSchedule, webhook)) {
      f.textProperty().addListener((o, x, y) -> validate(ok));
    }
    setResultConverter(b -> b == ButtonType.OK ? read() : null);
  }

  private GuiSettings read() {
    return new GuiSettings(Path.of(folder.getText().strip()), maxActive.getValue(), perDownload.getValue(),
        total.getValue(), Formats.parseRate(speedLimit.getText()), theme.getValue(), rpc.isSelected(), rpcPort.getValue(),
        clipboard.isSelected(), new AutomationSettings(runWindows.getText(), speedSchedule.getText(), onComplete.getText(),
            onError.getText(), webhook.getText()));
  }

  private static void field(TextField f, String id, String text, String prompt) {
    f.setId(id);
    f.setText(text);
    f.setPromptText(prompt);
  }

  private void validate(Button ok) {
    try {
      if (folder.getText().isBlank()) {
        throw new IllegalArgumentException("Choose a download folder.");
      }
      read();
      problem.setText("");
      ok.setDisable(false);
    } catch (RuntimeException e) {
      problem.setText(e.getMessage());
      ok.setDisable(true);
    }
  }

  private void chooseFolder() {
    DirectoryChooser chooser = new DirectoryChooser();
    chooser.setTitle("Download folder");
    File chosen = chooser.showDialog(getOwner());
    if (chosen != null) {
      folder.setText(chosen.getPath());
    }
  }
}
