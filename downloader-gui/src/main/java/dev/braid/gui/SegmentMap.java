package dev.braid.gui;

import java.util.List;
import javafx.scene.canvas.GraphicsContext;

/**
 * The segment map: the file as a bar, what is on disk filled in, the ranges being fetched tinted,
 * and a marker where each connection writes now (as axel and IDM draw it).
 */
final class SegmentMap extends CanvasPane {
  private static final double CARET_SPACE = 7;
  private long length = -1;
  private long done;
  private List<SegmentView> segments = List.of();

  SegmentMap() {
    getStyleClass().add("segment-map");
    setMinHeight(40);
    setPrefHeight(44);
  }

  /** Shows a download's current ranges. */
  void show(long length, long done, List<SegmentView> segments) {
    this.length = length;
    this.done = done;
    this.segments = segments;
    repaint();
  }

  @Override
  void paint(GraphicsContext g, double width, double height) {
    Palette p = palette();
    double top = CARET_SPACE + 1;
    double barHeight = height - top - 1;
    double radius = 6;
    g.setFill(p.track());
    g.fillRoundRect(0, top, width, barHeight, radius, radius);
    SegmentMapLayout.Layout layout = SegmentMapLayout.layout(length, done, segments, width);
    // spans are clipped to the rounded track so the ends stay round
    g.save();
    g.beginPath();
    roundRect(g, 0, top, width, barHeight, radius / 2);
    g.clip();
    for (SegmentMapLayout.Span s : layout.spans()) {
      g.setFill(s.kind() == SegmentMapLayout.Kind.DONE ? p.done() : p.inFlight());
      g.fillRect(s.x0(), top, Math.max(1, s.x1() - s.x0()), barHeight);
    }
    g.setFill(p.background());
    for (double x : layout.boundaries()) {
      g.fillRect(Math.round(x) - 0.5, top, 1, barHeight);
    }
    g.restore();
    g.setFill(p.caret());
    for (double x : layout.carets()) {
      double cx = Math.max(3, Math.min(width - 3, x));
      g.fillRect(cx - 1, top, 2, barHeight);
      g.fillPolygon(new double[] {cx - 4.5, cx + 4.5, cx}, new double[] {0, 0, CARET_SPACE}, 3);
    }
    if (length <= 0) {
      g.setFill(p.text());
      g.fillText("size not known yet", 10, top + barHeight / 2 + 4);
    }
  }

  private static void roundRect(GraphicsContext g, double x, double y, double w, double h, double r) {
    g.moveTo(x + r, y);
    g.lineTo(x + w - r, y);
    g.arcTo(x + w, y, x + w, y + r, r);
    g.lineTo(x + w, y + h - r);
    g.arcTo(x + w, y + h, x + w - r, y + h, r);
    g.lineTo(x + r, y + h);
    g.arcTo(x, y + h, x, y + h - r, r);
    g.lineTo(x, y + r);
    g.arcTo(x, y, x + r, y, r);
    g.closePath();
  }
}
