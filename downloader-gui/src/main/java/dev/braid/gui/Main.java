package dev.braid.gui;

import dev.braid.core.Braid;
import java.util.logging.Level;
import java.util.logging.Logger;
import javafx.application.Application;

/**
 * Starts the desktop app from a plain class path ({@code java -jar braid-gui.jar}). The JavaFX
 * launcher refuses a main class that extends {@code Application} unless JavaFX is on the module
 * path, so the jar's entry point is this class, which hands over to {@link BraidApp}.
 */
public final class Main {
  // held strongly: java.util.logging forgets the level of a logger nobody references
  private static final Logger JAVAFX_LOG = Logger.getLogger("javafx");

  private Main() {}

  /** @param args {@code --state-db=FILE} (or a server database's {@code postgresql://} URL) to use another state database than the default */
  public static void main(String[] args) {
    // JavaFX warns on every start that it was loaded from the class path; that is this jar's
    // deliberate packaging (one file, no module path), so the warning would only alarm users
    JAVAFX_LOG.setLevel(Level.SEVERE);
    // the store's driver loads while JavaFX starts its toolkit, before BraidApp.init opens the store
    Braid.warmUp();
    Application.launch(BraidApp.class, args);
  }
}
