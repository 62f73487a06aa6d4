package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.testserver.Content;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Labeled;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** A list of links added at once through the window's queue: the valid ones are added together, each bad one said alone. */
@ExtendWith(ApplicationExtension.class)
class PastedListTest extends LiveWindowHarness {
  @Start
  void start(Stage stage) throws Exception {
    open(stage);
  }

  @Test
  void aListWithABadChecksumAddsTheOthersAndNamesTheBadOne(FxRobot robot) throws Exception {
    Content a = Content.random(200_000, 51);
    Content c = Content.random(300_000, 53);
    server.serve("/a.bin", a);
    server.serve("/b.bin", Content.random(1000, 52));
    server.serve("/c.bin", c);

    queue.add(new AddRequest(List.of(AddRequest.Entry.of(server.url("/a.bin")),
        new AddRequest.Entry(server.url("/b.bin"), List.of(), "sha-256=not-hex", null),
        new AddRequest.Entry(server.url("/c.bin"), List.of(), "sha-256=" + c.sha256Hex(), "renamed.bin")), downloads()));

    awaitRow(server.url("/a.bin"), r -> r.status() == DownloadState.COMPLETED, 30);
    awaitRow(server.url("/c.bin"), r -> r.status() == DownloadState.COMPLETED, 30);
    WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(() ->
        robot.lookup(".toast-title").queryAll().stream().anyMatch(n -> ((Labeled) n).getText()
            .equals("Cannot add " + server.url("/b.bin")))).get());
    assertEquals(2, WaitForAsyncUtils.asyncFx(() -> window.table().getItems().size()).get());
    assertEquals(a.sha256Hex(), Content.sha256Hex(downloads().resolve("a.bin")));
    assertEquals(c.sha256Hex(), Content.sha256Hex(downloads().resolve("renamed.bin")));
  }
}
