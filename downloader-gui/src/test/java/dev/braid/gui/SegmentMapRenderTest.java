package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The segment map really paints: done, in flight, waiting and the connection's caret where the layout says. */
@ExtendWith(ApplicationExtension.class)
class SegmentMapRenderTest {
  private SegmentMap map;

  @Start
  void start(Stage stage) {
    map = new SegmentMap();
    map.setPrefSize(400, 40);
    stage.setScene(new Scene(new StackPane(map), 400, 40));
    stage.show();
  }

  @Test
  void paintsEachPartInItsColour() throws Exception {
    WritableImage image = WaitForAsyncUtils.asyncFx(() -> {
      // 4000 bytes on 400 px: [0,1000) done, [1000,3000) fetched up to 2000, [3000,4000) waiting
      map.show(4000, 2000, List.of(new SegmentView(0, 1000, 1000, false), new SegmentView(1000, 3000, 1000, true),
          new SegmentView(3000, 4000, 0, false)));
      return map.snapshot(null, null);
    }).get();
    double barY = 26;
    assertColour(Palette.LIGHT.done(), image, 50, barY);
    assertColour(Palette.LIGHT.done(), image, 150, barY);
    assertColour(Palette.LIGHT.inFlight(), image, 250, barY);
    assertColour(Palette.LIGHT.track(), image, 350, barY);
    assertColour(Palette.LIGHT.caret(), image, 200, barY);
    // the caret's marker above the bar
    assertColour(Palette.LIGHT.caret(), image, 200, 2);
  }

  private static void assertColour(Color expected, WritableImage image, double x, double y) {
    Color actual = image.getPixelReader().getColor((int) x, (int) y);
    assertEquals(expected.getRed(), actual.getRed(), 0.03, () -> "red at " + x + "," + y + ": " + actual);
    assertEquals(expected.getGreen(), actual.getGreen(), 0.03, () -> "green at " + x + "," + y + ": " + actual);
    assertEquals(expected.getBlue(), actual.getBlue(), 0.03, () -> "blue at " + x + "," + y + ": " + actual);
  }
}
