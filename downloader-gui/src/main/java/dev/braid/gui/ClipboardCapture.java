package dev.braid.gui;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.util.Duration;

/**
 * Opt-in clipboard capture: while on, a link copied to the clipboard is handed to {@code offer}
 * (which asks the person; nothing downloads by itself). JavaFX tells no one when the clipboard
 * changes, so it is read twice a second on the FX thread (a string read is cheap). What was on the
 * clipboard when capture was turned on is not offered, and neither is the link offered last (copied
 * again, or still there after other text came and went).
 */
final class ClipboardCapture {
  static final Duration EVERY = Duration.millis(500);

  private final Supplier<String> clipboard;
  private final Consumer<String> offer;
  private final Timeline poll;
  private String seen;
  private String offered;

  /** @param clipboard the clipboard's text, read on the FX thread (null when it holds none) */
  ClipboardCapture(Supplier<String> clipboard, Consumer<String> offer) {
    this.clipboard = clipboard;
    this.offer = offer;
    this.poll = new Timeline(new KeyFrame(EVERY, e -> check()));
    poll.setCycleCount(Animation.INDEFINITE);
  }

  /** FX thread: turns capture on or off. */
  void enabled(boolean on) {
    if (on && poll.getStatus() != Animation.Status.RUNNING) {
      seen = clipboard.get();
      poll.play();
    } else if (!on) {
      poll.stop();
    }
  }

  boolean enabled() {
    return poll.getStatus() == Animation.Status.RUNNING;
  }

  /** FX thread: offers the clipboard's link if it is new. */
  void check() {
    String text = clipboard.get();
    if (text == null || text.equals(seen)) {
      return;
    }
    seen = text;
    String link = text.strip();
    if (isLink(link) && !link.equals(offered)) {
      offered = link;
      offer.accept(link);
    }
  }

  /** One http or https URL with a host (what Braid downloads), nothing else on the clipboard. */
  static boolean isLink(String text) {
    if (text.isEmpty() || text.length() > 8192 || text.chars().anyMatch(Character::isWhitespace)) {
      return false;
    }
    try {
      URI u = new URI(text);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      return (scheme.equals("http") || scheme.equals("https")) && u.getHost() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
