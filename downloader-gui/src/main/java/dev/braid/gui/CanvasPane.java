package dev.braid.gui;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Region;

/**
 * A region that holds a canvas sized to itself and repaints it when resized, re-themed or told
 * that its data changed. A bare Canvas does not resize with its layout.
 */
abstract class CanvasPane extends Region {
  private final Canvas canvas = new Canvas();
  private final ObjectProperty<Palette> palette = new SimpleObjectProperty<>(this, "palette", Palette.LIGHT);

  CanvasPane() {
    getChildren().add(canvas);
    palette.addListener((o, a, b) -> repaint());
  }

  ObjectProperty<Palette> paletteProperty() {
    return palette;
  }

  Palette palette() {
    return palette.get();
  }

  @Override
  protected void layoutChildren() {
    double w = snapSizeX(getWidth() - snappedLeftInset() - snappedRightInset());
    double h = snapSizeY(getHeight() - snappedTopInset() - snappedBottomInset());
    canvas.relocate(snappedLeftInset(), snappedTopInset());
    if (w != canvas.getWidth() || h != canvas.getHeight()) {
      canvas.setWidth(Math.max(0, w));
      canvas.setHeight(Math.max(0, h));
      repaint();
    }
  }

  /** Paints again with the current data. */
  final void repaint() {
    GraphicsContext g = canvas.getGraphicsContext2D();
    g.clearRect(0, 0, canvas.getWidth(), canvas.getHeight());
    if (canvas.getWidth() > 0 && canvas.getHeight() > 0) {
      paint(g, canvas.getWidth(), canvas.getHeight());
    }
  }

  abstract void paint(GraphicsContext g, double width, double height);
}
