package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** 500 downloads in a real store: the table holds them all and the FX thread keeps answering while the store is polled. */
@ExtendWith(ApplicationExtension.class)
class LargeQueueTest extends LiveWindowHarness {
  @Start
  void start(Stage stage) throws Exception {
    open(stage);
  }

  @Test
  void fiveHundredDownloadsStayResponsive(FxRobot robot) throws Exception {
    server.serve("/f.bin", Content.random(64 << 20, 9)).rateLimitPerConnection(64 << 10);
    List<AddRequest.Entry> entries = IntStream.range(0, 500).mapToObj(i -> new AddRequest.Entry(server.url("/f.bin?n=" + i), List.of(), null, "f" + i + ".bin")).toList();
    long t0 = System.nanoTime();
    queue.add(new AddRequest(entries, downloads()));
    WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() -> window.table().getItems().size() == 500).get());
    long shown = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    robot.interact(() -> window.table().getSelectionModel().select(250));
    List<Long> lags = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      long s = System.nanoTime();
      WaitForAsyncUtils.asyncFx(() -> {}).get(5, TimeUnit.SECONDS);
      lags.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - s));
      Thread.sleep(100);
    }
    lags.sort(null);
    System.out.println("[500 rows] shown after " + shown + " ms; FX lag ms " + lags);
    assertTrue(lags.get(lags.size() / 2) < 150, "FX thread lag (ms): " + lags);
    // the queue holds them: three run (the default of active downloads), none failed
    robot.interact(window::refresh);
    assertEquals(0, (long) WaitForAsyncUtils.asyncFx(() -> window.model().count(DownloadState.FAILED)).get());
    assertTrue(WaitForAsyncUtils.asyncFx(() -> window.model().count(DownloadState.QUEUED)).get() >= 490);
  }
}
