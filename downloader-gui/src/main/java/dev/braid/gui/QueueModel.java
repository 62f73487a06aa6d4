package dev.braid.gui;

import dev.braid.store.DownloadState;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The rows of the queue table and the totals of the status bar, kept on the FX thread from
 * coalesced batches. Rows are updated in place, so a table of 500 rows redraws only the visible
 * cells whose values changed.
 */
final class QueueModel {
  private final ObservableList<DownloadRow> rows = FXCollections.observableArrayList();
  private final Map<Long, DownloadRow> byId = new HashMap<>();
  private final SpeedHistory totalHistory = new SpeedHistory(180);
  private final DoubleProperty totalSpeed = new SimpleDoubleProperty(this, "totalSpeed");
  private final Consumer<DownloadSnapshot> onFinished;

  /** @param onFinished told when a download this window saw running, or added, completes or fails */
  QueueModel(Consumer<DownloadSnapshot> onFinished) {
    this.onFinished = onFinished;
  }

  ObservableList<DownloadRow> rows() {
    return rows;
  }

  DownloadRow row(long id) {
    return byId.get(id);
  }

  DoubleProperty totalSpeedProperty() {
    return totalSpeed;
  }

  SpeedHistory totalHistory() {
    return totalHistory;
  }

  /** FX thread: applies one drain of the coalescer. */
  void apply(SnapshotCoalescer.Batch batch) {
    if (!batch.removed().isEmpty()) {
      rows.removeIf(r -> batch.removed().contains(r.id()));
      batch.removed().forEach(byId::remove);
    }
    for (DownloadSnapshot s : batch.updates()) {
      DownloadRow row = byId.get(s.id());
      if (row == null) {
        row = new DownloadRow(s);
        byId.put(s.id(), row);
        rows.add(row);
        // a row first seen finished is history (an old download), unless this window just added it
        if (s.addedHere() && StateLabels.finished(s.status())) {
          onFinished.accept(s);
        }
        continue;
      }
      DownloadState before = row.status();
      row.update(s);
      if (!StateLabels.finished(before) && StateLabels.finished(s.status())) {
        onFinished.accept(s);
      }
    }
    double sum = 0;
    for (DownloadRow r : rows) {
      sum += r.speedProperty().get();
    }
    totalSpeed.set(sum);
  }

  /** FX thread, once a second: one point of every speed graph. */
  void sample() {
    for (DownloadRow r : rows) {
      r.sample();
    }
    totalHistory.add(totalSpeed.get());
  }

  long count(DownloadState status) {
    return rows.stream().filter(r -> r.status() == status).count();
  }
}
