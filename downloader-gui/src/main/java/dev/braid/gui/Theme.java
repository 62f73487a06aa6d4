package dev.braid.gui;

import java.util.List;
import java.util.Locale;
import javafx.scene.Scene;

/** Light or dark: a shared stylesheet plus one that defines the palette's looked-up colours. */
enum Theme {
  LIGHT,
  DARK;

  private static final String BASE = "braid.css";

  /** Replaces the scene's stylesheets with this theme's; safe to call again to switch live. */
  void applyTo(Scene scene) {
    scene.getStylesheets().setAll(stylesheets());
  }

  List<String> stylesheets() {
    return List.of(url(name().toLowerCase(Locale.ROOT) + ".css"), url(BASE));
  }

  /** The setting's value read leniently: anything but "dark" is light. */
  static Theme parse(String s) {
    return "dark".equalsIgnoreCase(s == null ? "" : s.strip()) ? DARK : LIGHT;
  }

  private static String url(String file) {
    var u = Theme.class.getResource(file);
    if (u == null) {
      throw new IllegalStateException("stylesheet missing from the jar: " + file);
    }
    return u.toExternalForm();
  }
}
