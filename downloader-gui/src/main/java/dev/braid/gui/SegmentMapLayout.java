package dev.braid.gui;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the segment map's pieces fall on a bar of a given width: which spans are done, which are
 * being fetched, where each connection is. Pure arithmetic, separate from the drawing so it can be
 * tested without a screen.
 */
final class SegmentMapLayout {
  private SegmentMapLayout() {}

  /** A horizontal piece of the bar, in pixels. */
  record Span(double x0, double x1, Kind kind) {}

  /** What a span shows. */
  enum Kind {
    DONE,
    IN_FLIGHT
  }

  /** The result: spans to fill over the track, carets (connection positions) and range boundaries. */
  record Layout(List<Span> spans, List<Double> carets, List<Double> boundaries) {}

  /**
   * Lays out the segments of a download of {@code length} bytes on {@code width} pixels. Without
   * segments (a finished or not yet planned download) the bar is filled up to {@code done}.
   */
  static Layout layout(long length, long done, List<SegmentView> segments, double width) {
    List<Span> spans = new ArrayList<>();
    List<Double> carets = new ArrayList<>();
    List<Double> boundaries = new ArrayList<>();
    if (length <= 0 || width <= 0) {
      return new Layout(spans, carets, boundaries);
    }
    double scale = width / length;
    if (segments.isEmpty()) {
      if (done > 0) {
        spans.add(new Span(0, Math.min(width, done * scale), Kind.DONE));
      }
      return new Layout(spans, carets, boundaries);
    }
    for (SegmentView s : segments) {
      double x0 = s.start() * scale;
      double xd = s.position() * scale;
      double x1 = Math.min(width, s.end() * scale);
      if (s.done() > 0) {
        spans.add(new Span(x0, xd, Kind.DONE));
      }
      if (s.active() && s.done() < s.length()) {
        spans.add(new Span(xd, x1, Kind.IN_FLIGHT));
        carets.add(xd);
      }
      if (s.start() > 0) {
        boundaries.add(x0);
      }
    }
    return new Layout(spans, carets, boundaries);
  }
}
