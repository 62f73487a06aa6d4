package dev.braid.gui;

import dev.braid.core.Braid;
import dev.braid.core.LocalFileException;

/**
 * The app's own settings ({@link GuiSettings}: folder, theme, connections, hooks...) in the state
 * database, where the CLI and a second window see them, read and written through a {@link Braid}
 * that runs nothing: the same whether this app or a {@code braid daemon} runs the queue. Blocking;
 * call it off the FX thread.
 *
 * @param stateLocation the state database (a file, or a server database's URL)
 */
record SettingsStore(String stateLocation) {
  SettingsStore {
    if (stateLocation == null || stateLocation.isBlank()) {
      throw new IllegalArgumentException("the settings need a state database");
    }
  }

  /** The stored settings, defaults for those never saved. */
  GuiSettings load() throws LocalFileException {
    try (Braid reader = Braid.builder().stateLocation(stateLocation).runQueue(false).build()) {
      return GuiSettings.from(reader.settings());
    }
  }

  /** Stores every setting of {@code s}. */
  void save(GuiSettings s) throws LocalFileException {
    try (Braid writer = Braid.builder().stateLocation(stateLocation).runQueue(false).build()) {
      s.toMap().forEach(writer::saveSetting);
    }
  }
}
