package dev.braid.gui;

import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/** The speed of the last minutes as a filled line, newest at the right, with a labelled scale. */
final class SpeedGraph extends CanvasPane {
  private static final double LABEL_WIDTH = 64;
  private SpeedHistory history = new SpeedHistory(180);

  SpeedGraph() {
    getStyleClass().add("speed-graph");
    setMinHeight(80);
    setPrefHeight(120);
  }

  /** Shows this history (the graph keeps no copy: call again after it grew). */
  void show(SpeedHistory h) {
    this.history = h;
    repaint();
  }

  /** A round top for the scale, at least the peak: 1, 2 or 5 times a power of ten of B, KiB, MiB or GiB per second. */
  static double niceMax(double peak) {
    if (peak <= 0) {
      return 1024;
    }
    double unit = 1;
    while (peak / unit >= 1024 && unit < 1024.0 * 1024 * 1024) {
      unit *= 1024;
    }
    double x = peak / unit;
    double step = 1;
    while (step * 10 < x) {
      step *= 10;
    }
    for (double m : new double[] {1, 2, 5}) {
      if (step * m >= x) {
        return step * m * unit;
      }
    }
    return step * 10 * unit;
  }

  @Override
  void paint(GraphicsContext g, double width, double height) {
    Palette p = palette();
    double[] v = history.values();
    double max = niceMax(history.max() * 1.1);
    double plotX = LABEL_WIDTH;
    double plotW = width - plotX - 4;
    double top = 6;
    double plotH = height - top - 16;
    if (plotW <= 10 || plotH <= 10) {
      return;
    }
    g.setFont(Font.font(10.5));
    g.setTextBaseline(VPos.CENTER);
    g.setTextAlign(TextAlignment.RIGHT);
    g.setLineWidth(1);
    for (int i = 0; i <= 4; i++) {
      double y = Math.round(top + plotH * i / 4.0) + 0.5;
      g.setStroke(p.grid());
      g.strokeLine(plotX, y, plotX + plotW, y);
      g.setFill(p.text());
      g.fillText(i == 4 ? "0" : Formats.speed(max * (4 - i) / 4.0), plotX - 8, y);
    }
    g.setTextAlign(TextAlignment.LEFT);
    g.setTextBaseline(VPos.BOTTOM);
    // a young history fills the width in 30 s steps rather than hugging the right edge
    int span = Math.min(history.capacity(), Math.max(30, (v.length + 29) / 30 * 30));
    g.fillText("last " + (span < 120 ? span + " s" : span / 60 + " min"), plotX, height);
    g.setTextAlign(TextAlignment.RIGHT);
    g.fillText("now", plotX + plotW, height);
    if (v.length < 2) {
      return;
    }
    double dx = plotW / (span - 1);
    double x0 = plotX + plotW - dx * (v.length - 1);
    double[] xs = new double[v.length + 2];
    double[] ys = new double[v.length + 2];
    for (int i = 0; i < v.length; i++) {
      xs[i] = x0 + dx * i;
      ys[i] = top + plotH - plotH * Math.min(1, v[i] / max);
    }
    xs[v.length] = plotX + plotW;
    ys[v.length] = top + plotH;
    xs[v.length + 1] = x0;
    ys[v.length + 1] = top + plotH;
    g.setFill(p.fill());
    g.fillPolygon(xs, ys, xs.length);
    g.setStroke(p.line());
    g.setLineWidth(2);
    g.strokePolyline(xs, ys, v.length);
  }
}
