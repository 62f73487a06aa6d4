package dev.braid.gui;

import javafx.animation.FadeTransition;
import javafx.animation.PauseTransition;
import javafx.animation.SequentialTransition;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

/**
 * In-window notifications: a stack of cards at the bottom right that fade after a few seconds.
 * Desktop notification daemons differ per platform; a card inside the window always works.
 */
final class Toasts extends VBox {
  private static final int MAX = 4;

  /** How a card is coloured. */
  enum Kind {
    SUCCESS,
    ERROR
  }

  Toasts() {
    getStyleClass().add("toasts");
    setAlignment(Pos.BOTTOM_RIGHT);
    setSpacing(8);
    setPickOnBounds(false);
    setMaxSize(USE_PREF_SIZE, USE_PREF_SIZE);
  }

  /** FX thread: shows a card. */
  void show(Kind kind, String title, String text) {
    Label titleLabel = new Label(title);
    titleLabel.getStyleClass().add("toast-title");
    Label body = new Label(text);
    body.getStyleClass().add("toast-text");
    body.setWrapText(true);
    VBox card = new VBox(2, titleLabel, body);
    card.getStyleClass().addAll("toast", "toast-" + kind.name().toLowerCase(java.util.Locale.ROOT));
    card.setMaxWidth(360);
    card.setOnMouseClicked(e -> getChildren().remove(card));
    if (getChildren().size() >= MAX) {
      getChildren().remove(0);
    }
    getChildren().add(card);
    FadeTransition fade = new FadeTransition(Duration.millis(400), card);
    fade.setToValue(0);
    SequentialTransition life = new SequentialTransition(new PauseTransition(Duration.seconds(kind == Kind.ERROR ? 8 : 5)), fade);
    life.setOnFinished(e -> getChildren().remove(card));
    life.play();
  }
}
