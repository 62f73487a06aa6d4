package dev.braid.gui;

import javafx.scene.Group;
import javafx.scene.Node;
import javafx.scene.SnapshotParameters;
import javafx.scene.image.Image;
import javafx.scene.paint.Color;
import javafx.scene.shape.SVGPath;

/** The toolbar's and menus' glyphs as vector paths (24-unit grid), tinted by CSS ({@code .icon}). */
final class Icons {
  private Icons() {}

  static Node add() {
    return icon("M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z");
  }

  static Node pause() {
    return icon("M7 5h3.5v14H7zM13.5 5H17v14h-3.5z");
  }

  static Node resume() {
    return icon("M8 5l11 7-11 7z");
  }

  static Node cancel() {
    return icon("M6.4 5L12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z");
  }

  static Node remove() {
    return icon("M9 3h6l1 2h4v2H4V5h4zM6 9h12l-1 12H7z");
  }

  static Node settings() {
    return icon("M10.3 2h3.4l.5 2.6 1.9.8 2.2-1.5 2.4 2.4-1.5 2.2.8 1.9 2.6.5v3.4l-2.6.5-.8 1.9 1.5 2.2-2.4 2.4-2.2-1.5-1.9.8-.5 2.6h-3.4l-.5-2.6-1.9-.8-2.2 1.5-2.4-2.4 1.5-2.2-.8-1.9L2 13.7v-3.4l2.6-.5.8-1.9-1.5-2.2 2.4-2.4 2.2 1.5 1.9-.8zM12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z");
  }

  static Node speed() {
    return icon("M12 4a10 10 0 0 0-10 10c0 1.9.5 3.6 1.4 5h17.2A9.9 9.9 0 0 0 22 14 10 10 0 0 0 12 4zm0 2a8 8 0 0 1 7.7 10H4.3A8 8 0 0 1 12 6zm4.2 2.4-5 5a1.6 1.6 0 1 0 2.3 2.2l2.7-7.2z");
  }

  static Node theme() {
    return icon("M12 3a9 9 0 1 0 9 9 7 7 0 0 1-9-9z");
  }

  static Node logo() {
    SVGPath p = new SVGPath();
    // three strands braided into one arrow: the app's mark
    p.setContent("M4 4c4 0 4 6 8 6s4-6 8-6v3c-2.5 0-2.8 6-8 6S6.5 7 4 7zM4 10c4 0 4 6 8 6s4-6 8-6v3c-2.5 0-2.8 6-8 6s-5.5-6-8-6zM8 19h8l-4 4z");
    p.getStyleClass().add("logo");
    return p;
  }

  /** The window's icon: the mark drawn once into an image. */
  static Image appIcon() {
    Node logo = logo();
    logo.setStyle("-fx-fill: #3b82f6;");
    logo.setScaleX(2.5);
    logo.setScaleY(2.5);
    SnapshotParameters p = new SnapshotParameters();
    p.setFill(Color.TRANSPARENT);
    return new Group(logo).snapshot(p, null);
  }

  private static Node icon(String path) {
    SVGPath p = new SVGPath();
    p.setContent(path);
    p.getStyleClass().add("icon");
    p.setScaleX(0.75);
    p.setScaleY(0.75);
    return p;
  }
}
