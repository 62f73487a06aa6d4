package dev.braid.gui;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Renders the main window with real downloads from the loopback server (one in progress with its
 * segment map and speed graph, others completed, paused, failed and queued) into
 * {@code target/braid-gui-light.png} and {@code target/braid-gui-dark.png}; README shows a copy.
 */
@ExtendWith(ApplicationExtension.class)
class ScreenshotTest extends LiveWindowHarness {
  @Start
  void start(Stage stage) throws Exception {
    open(stage);
  }

  @Test
  void rendersTheMainWindowLightAndDark(FxRobot robot) throws Exception {
    server.serve("/releases/ubuntu-26.04-desktop-amd64.iso", Content.random(160 << 20, 1)).etag("\"66f1-a3b2c\"")
        .rateLimitPerConnection(1 << 20);
    server.serve("/pub/linux-6.18.tar.xz", Content.random(3 << 20, 2)).etag("\"l618\"");
    server.serve("/data/measurements-2026-11.parquet", Content.random(96 << 20, 3)).rateLimitPerConnection(384 << 10);
    server.serve("/dist/fedora-workstation-43.iso", Content.random(64 << 20, 4)).rateLimitPerConnection(512 << 10);
    server.serve("/dist/node-v24.11.0-linux-x64.tar.xz", Content.random(48 << 20, 5)).rateLimitPerConnection(128 << 10);
    server.serve("/cd/debian-13.2.0-amd64-DVD-1.iso", Content.random(32 << 20, 6));
    server.respond("/data/measurements-2026-10.parquet", 404);
    String ubuntu = server.url("/releases/ubuntu-26.04-desktop-amd64.iso");
    String fedora = server.url("/dist/fedora-workstation-43.iso");
    String linux = server.url("/pub/linux-6.18.tar.xz");

    queue.add(new AddRequest(List.of(AddRequest.Entry.of(linux), AddRequest.Entry.of(server.url("/data/measurements-2026-10.parquet"))), downloads()));
    awaitRow(linux, r -> r.status() == DownloadState.COMPLETED, 20);
    queue.add(new AddRequest(List.of(AddRequest.Entry.of(fedora)), downloads()));
    DownloadRow fedoraRow = awaitRow(fedora, r -> r.snapshot().done() > (4 << 20), 20);
    queue.pause(List.of(fedoraRow.id()));
    awaitRow(fedora, r -> r.status() == DownloadState.PAUSED, 10);
    queue.add(new AddRequest(List.of(AddRequest.Entry.of(ubuntu), AddRequest.Entry.of(server.url("/data/measurements-2026-11.parquet")),
        AddRequest.Entry.of(server.url("/dist/node-v24.11.0-linux-x64.tar.xz")),
        AddRequest.Entry.of(server.url("/cd/debian-13.2.0-amd64-DVD-1.iso"))), downloads()));
    DownloadRow row = awaitRow(ubuntu, r -> r.status() == DownloadState.ACTIVE && r.snapshot().segments().size() >= 4, 20);
    select(robot, row);
    // a few seconds of graph, and the connection count settling
    WaitForAsyncUtils.sleep(4, TimeUnit.SECONDS);

    Path light = WaitForAsyncUtils.asyncFx(() -> {
      window.theme(Theme.LIGHT);
      window.refresh();
      return Screenshots.save(window.scene(), "braid-gui-light");
    }).get();
    Path dark = WaitForAsyncUtils.asyncFx(() -> {
      window.theme(Theme.DARK);
      window.refresh();
      return Screenshots.save(window.scene(), "braid-gui-dark");
    }).get();

    for (Path png : List.of(light, dark)) {
      BufferedImage image = ImageIO.read(png.toFile());
      assertEquals(1180, image.getWidth());
      assertEquals(760, image.getHeight());
      assertTrue(Files.size(png) > 20_000, png + " looks empty");
    }
    // the light and dark backgrounds differ where the table is
    assertTrue(brightness(ImageIO.read(light.toFile())) > brightness(ImageIO.read(dark.toFile())) + 0.3);
  }

  private static double brightness(BufferedImage image) {
    int rgb = image.getRGB(image.getWidth() - 20, 140);
    return ((rgb >> 16 & 0xff) + (rgb >> 8 & 0xff) + (rgb & 0xff)) / 765.0;
  }
}
