package dev.braid.gui;

import javafx.scene.paint.Color;

/**
 * The colours the canvases paint with. CSS cannot reach into a Canvas, so each theme has one of
 * these, matching the looked-up colours of its stylesheet.
 */
record Palette(Color background, Color track, Color done, Color inFlight, Color caret, Color grid, Color text, Color line, Color fill) {
  static final Palette LIGHT = new Palette(
      Color.web("#ffffff"), Color.web("#e6e9ef"), Color.web("#3b82f6"), Color.web("#bfd6fb"),
      Color.web("#f97316"), Color.web("#e3e6ec"), Color.web("#6b7280"), Color.web("#3b82f6"),
      Color.web("#3b82f6", 0.18));
  static final Palette DARK = new Palette(
      Color.web("#1c2029"), Color.web("#2b313d"), Color.web("#60a5fa"), Color.web("#2f4a73"),
      Color.web("#fb923c"), Color.web("#2d3340"), Color.web("#9aa3b2"), Color.web("#60a5fa"),
      Color.web("#60a5fa", 0.22));

  static Palette of(Theme theme) {
    return theme == Theme.DARK ? DARK : LIGHT;
  }
}
