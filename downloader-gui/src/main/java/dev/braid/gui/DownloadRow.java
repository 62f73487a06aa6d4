package dev.braid.gui;

import dev.braid.store.DownloadState;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * One line of the queue table, touched only on the FX thread. Columns bind to typed properties
 * (sizes as longs, speeds as doubles) so sorting compares numbers, and cells format them.
 */
final class DownloadRow {
  private final long id;
  private final StringProperty name = new SimpleStringProperty(this, "name", "");
  private final LongProperty length = new SimpleLongProperty(this, "length", -1);
  private final DoubleProperty fraction = new SimpleDoubleProperty(this, "fraction", 0);
  private final DoubleProperty speed = new SimpleDoubleProperty(this, "speed", 0);
  private final ObjectProperty<Long> etaSeconds = new SimpleObjectProperty<>(this, "eta");
  private final IntegerProperty connections = new SimpleIntegerProperty(this, "connections", 0);
  private final ObjectProperty<DownloadState> status = new SimpleObjectProperty<>(this, "status", DownloadState.QUEUED);
  private final ObjectProperty<DownloadSnapshot> snapshot = new SimpleObjectProperty<>(this, "snapshot");
  private final SpeedHistory history = new SpeedHistory(180);

  DownloadRow(DownloadSnapshot first) {
    this.id = first.id();
    update(first);
  }

  long id() {
    return id;
  }

  /** Applies a newer snapshot; properties that did not change fire nothing. */
  void update(DownloadSnapshot s) {
    if (s.id() != id) {
      throw new IllegalArgumentException("snapshot of " + s.id() + " given to row " + id);
    }
    name.set(s.name());
    length.set(s.length());
    fraction.set(s.fraction());
    speed.set(s.status() == DownloadState.ACTIVE ? s.bytesPerSecond() : 0);
    etaSeconds.set(s.status() == DownloadState.ACTIVE && s.eta() != null ? s.eta().toSeconds() : null);
    connections.set(s.status() == DownloadState.ACTIVE ? s.connections() : 0);
    status.set(s.status());
    snapshot.set(s);
  }

  /** Once a second: records the current speed for the graph. */
  void sample() {
    history.add(speed.get());
  }

  SpeedHistory history() {
    return history;
  }

  StringProperty nameProperty() {
    return name;
  }

  LongProperty lengthProperty() {
    return length;
  }

  DoubleProperty fractionProperty() {
    return fraction;
  }

  DoubleProperty speedProperty() {
    return speed;
  }

  /** Seconds left, or null when not downloading or unknown (sorts last). */
  ObjectProperty<Long> etaSecondsProperty() {
    return etaSeconds;
  }

  IntegerProperty connectionsProperty() {
    return connections;
  }

  ObjectProperty<DownloadState> statusProperty() {
    return status;
  }

  ObjectProperty<DownloadSnapshot> snapshotProperty() {
    return snapshot;
  }

  DownloadSnapshot snapshot() {
    return snapshot.get();
  }

  DownloadState status() {
    return status.get();
  }
}
