package dev.braid.gui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;

/** Saves what a scene shows as a PNG, into the folder surefire names ({@code target/} by default). */
final class Screenshots {
  private Screenshots() {}

  static Path folder() {
    return Path.of(System.getProperty("braid.gui.screenshots", "target"));
  }

  /** FX thread: renders the scene and writes {@code name}.png; returns the file. */
  static Path save(Scene scene, String name) throws IOException {
    WritableImage image = scene.snapshot(null);
    Path file = folder().resolve(name + ".png");
    Files.createDirectories(file.getParent());
    ImageIO.write(SwingFXUtils.fromFXImage(image, null), "png", file.toFile());
    return file;
  }
}
