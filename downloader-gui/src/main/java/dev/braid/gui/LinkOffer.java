package dev.braid.gui;

import java.util.function.Consumer;
import javafx.animation.PauseTransition;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

/**
 * The card a captured link shows among the notifications: the link, Download and Dismiss. Not
 * modal and never a download by itself; one card at a time (a newer link replaces it), gone after
 * {@link #SHOWN} untouched.
 */
final class LinkOffer {
  static final Duration SHOWN = Duration.seconds(20);

  private final Pane stack;
  private final Consumer<String> download;
  private VBox card;
  private PauseTransition life;

  /**
   * @param stack where the card goes (the window's notifications)
   * @param download adds the link to the queue
   */
  LinkOffer(Pane stack, Consumer<String> download) {
    this.stack = stack;
    this.download = download;
  }

  /** FX thread: offers {@code url}. */
  void show(String url) {
    dismiss();
    Label title = new Label("Download the copied link?");
    title.getStyleClass().add("toast-title");
    Label link = new Label(url);
    link.setId("clipboard-link");
    link.getStyleClass().add("toast-text");
    link.setWrapText(true);
    Button yes = new Button("Download");
    yes.setId("clipboard-download");
    yes.getStyleClass().add("accent");
    Button no = new Button("Dismiss");
    no.setId("clipboard-dismiss");
    HBox buttons = new HBox(8, no, yes);
    buttons.setAlignment(Pos.CENTER_RIGHT);
    VBox c = new VBox(6, title, link, buttons);
    c.setId("clipboard-offer");
    c.getStyleClass().addAll("toast", "toast-success");
    c.setMaxWidth(360);
    yes.setOnAction(e -> {
      dismiss();
      download.accept(url);
    });
    no.setOnAction(e -> dismiss());
    card = c;
    stack.getChildren().add(c);
    life = new PauseTransition(SHOWN);
    life.setOnFinished(e -> dismiss());
    life.play();
  }

  /** FX thread: takes the card away, if one shows. */
  void dismiss() {
    if (life != null) {
      life.stop();
      life = null;
    }
    if (card != null) {
      stack.getChildren().remove(card);
      card = null;
    }
  }
}
