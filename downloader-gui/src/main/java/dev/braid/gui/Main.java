package dev.braid.gui;

import javafx.application.Application;

/**
 * Starts the desktop app from a plain class path ({@code java -jar braid-gui.jar}). The JavaFX
 * launcher refuses a main class that extends {@code Application} unless JavaFX is on the module
 * path, so the jar's entry point is this class, which hands over to {@link BraidApp}.
 */
public final class Main {
  private Main() {}

  /** @param args {@code --state-db=FILE} to use another state database than the default */
  public static void main(String[] args) {
    Application.launch(BraidApp.class, args);
  }
}
