package dev.braid.gui;

import dev.braid.store.DownloadState;
import static dev.braid.gui.SnapshotCoalescerTest.snap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueueModelTest {
  final List<DownloadSnapshot> finished = new ArrayList<>();
  final QueueModel model = new QueueModel(finished::add);

  @Test
  void rowsAreUpdatedInPlaceAndRemoved() {
    model.apply(new SnapshotCoalescer.Batch(List.of(snap(1, 10, DownloadState.ACTIVE), snap(2, 0, DownloadState.QUEUED)), Set.of()));
    DownloadRow first = model.row(1);
    model.apply(new SnapshotCoalescer.Batch(List.of(snap(1, 500, DownloadState.ACTIVE)), Set.of(2L)));
    assertEquals(1, model.rows().size());
    assertSame(first, model.rows().get(0));
    assertEquals(0.5, first.fractionProperty().get(), 1e-9);
    assertEquals(10, model.totalSpeedProperty().get(), 1e-9);
  }

  @Test
  void notifiesOnlyOfDownloadsThatFinishWhileWatched() {
    model.apply(new SnapshotCoalescer.Batch(List.of(snap(1, 1000, DownloadState.COMPLETED), snap(2, 5, DownloadState.ACTIVE)), Set.of()));
    assertEquals(List.of(), finished);
    model.apply(new SnapshotCoalescer.Batch(List.of(snap(1, 1000, DownloadState.COMPLETED), snap(2, 5, DownloadState.FAILED)), Set.of()));
    assertEquals(1, finished.size());
    assertEquals(2, finished.get(0).id());
    DownloadSnapshot quickFailure = new DownloadSnapshot(3, "http://h/x", "x", null, DownloadState.FAILED, "HTTP 404", -1, 0, 0, 0,
        null, List.of(), null, null, null, null, null, List.of(), PhaseTimings.NONE, true);
    model.apply(new SnapshotCoalescer.Batch(List.of(quickFailure), Set.of()));
    assertEquals(2, finished.size(), "one this window added is news even when first seen failed");
  }

  @Test
  void onlyRunningRowsShowSpeedEtaAndConnections() {
    model.apply(new SnapshotCoalescer.Batch(List.of(snap(1, 10, DownloadState.PAUSED)), Set.of()));
    DownloadRow r = model.row(1);
    assertEquals(0, r.speedProperty().get());
    assertEquals(0, r.connectionsProperty().get());
    model.sample();
    assertEquals(1, model.totalHistory().size());
  }
}
