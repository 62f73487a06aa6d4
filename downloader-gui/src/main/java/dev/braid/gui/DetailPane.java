package dev.braid.gui;

import dev.braid.store.DownloadState;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.shape.Rectangle;

/**
 * The selected download in depth: its segment map, its speed over the last minutes, and the facts
 * behind them (connections and why, validators, checksum, error). With nothing selected it shows
 * the total speed.
 */
final class DetailPane extends VBox {
  private final QueueModel model;
  private final Label title = new Label();
  private final Label subtitle = new Label();
  private final SegmentMap map = new SegmentMap();
  private final SpeedGraph graph = new SpeedGraph();
  private final Label mapCaption = new Label();
  private final VBox mapBox;
  private final Label graphCaption = new Label();
  private final GridPane facts = new GridPane();
  private final Label error = new Label();
  private final ChangeListener<DownloadSnapshot> onSnapshot = (o, a, b) -> show(b);
  private DownloadRow row;

  DetailPane(QueueModel model) {
    this.model = model;
    getStyleClass().add("detail-pane");
    setId("detail");
    setSpacing(10);
    setPadding(new Insets(14, 18, 14, 18));
    title.getStyleClass().add("detail-title");
    title.setId("detail-title");
    subtitle.getStyleClass().add("detail-subtitle");
    mapCaption.getStyleClass().add("section-caption");
    graphCaption.getStyleClass().add("section-caption");
    error.getStyleClass().add("detail-error");
    error.setId("detail-error");
    error.setWrapText(true);
    error.setManaged(false);
    error.setVisible(false);
    facts.getStyleClass().add("facts");
    facts.setHgap(14);
    facts.setVgap(5);
    // two key/value pairs per line, each pair half the width, so the columns line up whatever the values
    for (int i = 0; i < 2; i++) {
      ColumnConstraints key = new ColumnConstraints();
      key.setPercentWidth(11);
      ColumnConstraints value = new ColumnConstraints();
      value.setPercentWidth(39);
      facts.getColumnConstraints().addAll(key, value);
    }
    HBox legend = new HBox(14, legend("done", "legend-done"), legend("being fetched", "legend-inflight"),
        legend("waiting", "legend-waiting"), legend("connection", "legend-caret"));
    legend.getStyleClass().add("legend");
    HBox mapHeader = new HBox(12, mapCaption, spacer(), legend);
    mapBox = new VBox(6, mapHeader, map);
    HBox top = new HBox(title);
    VBox.setVgrow(graph, Priority.ALWAYS);
    getChildren().addAll(new VBox(2, top, subtitle), mapBox, error, graphCaption, graph, facts);
    show(null);
  }

  SegmentMap segmentMap() {
    return map;
  }

  SpeedGraph speedGraph() {
    return graph;
  }

  /** Follows another row (or none). */
  void select(DownloadRow next) {
    if (row != null) {
      row.snapshotProperty().removeListener(onSnapshot);
    }
    row = next;
    if (row != null) {
      row.snapshotProperty().addListener(onSnapshot);
    }
    show(row == null ? null : row.snapshot());
  }

  /** Once a second, after the model sampled: the graph moves on. */
  void tick() {
    graph.show(row == null ? model.totalHistory() : row.history());
  }

  private void show(DownloadSnapshot s) {
    facts.getChildren().clear();
    if (s == null) {
      title.setText("All downloads");
      subtitle.setText(model.rows().size() + " in the queue · select one to see its segments");
      mapBox.setVisible(false);
      mapBox.setManaged(false);
      error.setVisible(false);
      error.setManaged(false);
      graphCaption.setText("TOTAL SPEED · " + Formats.speed(model.totalSpeedProperty().get()));
      graph.show(model.totalHistory());
      return;
    }
    title.setText(s.name());
    subtitle.setText(s.url());
    mapBox.setVisible(true);
    mapBox.setManaged(true);
    long active = s.segments().stream().filter(SegmentView::active).count();
    mapCaption.setText("SEGMENTS · " + s.segments().size() + " ranges, " + active + " being fetched");
    map.show(s.length(), s.done(), s.segments());
    graphCaption.setText("SPEED · " + (s.status() == DownloadState.ACTIVE ? Formats.speed(s.bytesPerSecond()) : StateLabels.label(s.status())));
    graph.show(row.history());
    // a failure's error, or when a download waiting out an outage tries again
    boolean failed = s.error() != null && (s.status() == DownloadState.FAILED || s.status() == DownloadState.QUEUED);
    error.setText(failed ? s.error() : "");
    error.setVisible(failed);
    error.setManaged(failed);

    fact(0, 0, "Status", StateLabels.label(s.status()));
    fact(0, 1, "Size", Formats.bytes(s.length()));
    fact(0, 2, "Downloaded", Formats.bytes(s.done()) + (s.length() > 0 ? String.format(java.util.Locale.ROOT, " (%.1f%%)", 100.0 * s.done() / s.length()) : ""));
    fact(0, 3, "ETA", s.status() == DownloadState.ACTIVE ? Formats.eta(s.eta()) : Formats.NONE);
    fact(0, 4, "Connections", s.connections() + (s.connectionReason() != null ? " · " + s.connectionReason() : ""));
    fact(0, 5, "File", s.file() == null ? Formats.NONE : s.file());
    fact(2, 0, "ETag", orNone(s.etag()));
    fact(2, 1, "Last-Modified", orNone(s.lastModified()));
    fact(2, 2, "Final URL", orNone(s.finalUrl()));
    fact(2, 3, "Checksum", s.checksumState());
    fact(2, 4, "Mirrors", s.mirrors().isEmpty() ? Formats.NONE : String.join("\n", s.mirrors()));
    fact(2, 5, "Timings", s.timings().phases());
    fact(2, 6, "Requests", s.timings().requestsLine());
  }

  private void fact(int column, int rowIndex, String key, String value) {
    Label k = new Label(key);
    k.getStyleClass().add("fact-key");
    Label v = new Label(value);
    v.getStyleClass().add("fact-value");
    v.setId("fact-" + key.toLowerCase(java.util.Locale.ROOT).replace(' ', '-'));
    v.setMinWidth(0);
    facts.add(k, column, rowIndex);
    facts.add(v, column + 1, rowIndex);
  }

  private static String orNone(String s) {
    return s == null || s.isBlank() ? Formats.NONE : s;
  }

  private static Region spacer() {
    Region r = new Region();
    HBox.setHgrow(r, Priority.ALWAYS);
    return r;
  }

  private static HBox legend(String text, String swatchClass) {
    Rectangle swatch = new Rectangle(10, 10);
    swatch.setArcWidth(3);
    swatch.setArcHeight(3);
    swatch.getStyleClass().addAll("swatch", swatchClass);
    Label l = new Label(text);
    l.getStyleClass().add("legend-text");
    HBox box = new HBox(5, swatch, l);
    box.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
    return box;
  }
}
