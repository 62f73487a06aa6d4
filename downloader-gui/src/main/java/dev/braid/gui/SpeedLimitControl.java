package dev.braid.gui;

import java.util.function.LongConsumer;
import javafx.geometry.Pos;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;

/**
 * The toolbar's global speed limit: pick a preset or type one ("750K", "3M"); it applies live as
 * soon as it is committed. A value that does not parse is marked and ignored.
 */
final class SpeedLimitControl extends HBox {
  private final ComboBox<String> box = new ComboBox<>();
  private final LongConsumer onChange;
  private long current;

  SpeedLimitControl(long initial, LongConsumer onChange) {
    this.onChange = onChange;
    this.current = initial;
    getStyleClass().add("speed-limit");
    setAlignment(Pos.CENTER_LEFT);
    setSpacing(6);
    box.setId("speed-limit");
    box.setEditable(true);
    box.getItems().setAll("unlimited", "256K", "512K", "1M", "2M", "5M", "10M", "50M");
    box.setPrefWidth(118);
    box.setValue(Formats.rate(initial));
    box.setTooltip(new Tooltip("Global speed limit, per second (K, M, G); applies at once"));
    box.valueProperty().addListener((o, a, b) -> commit(b));
    Label icon = new Label(null, Icons.speed());
    icon.getStyleClass().add("speed-limit-icon");
    getChildren().addAll(icon, box);
  }

  /** Shows a limit set elsewhere (the settings dialog) without applying it again. */
  void show(long bps) {
    current = bps;
    box.setValue(Formats.rate(bps));
  }

  long current() {
    return current;
  }

  private void commit(String text) {
    if (text == null) {
      return;
    }
    long bps;
    try {
      bps = Formats.parseRate(text);
    } catch (IllegalArgumentException e) {
      box.getEditor().getStyleClass().add("invalid");
      return;
    }
    box.getEditor().getStyleClass().remove("invalid");
    if (bps != current) {
      current = bps;
      onChange.accept(bps);
    }
  }
}
