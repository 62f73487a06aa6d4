package dev.braid.state;

import dev.braid.store.StateStore;
import dev.braid.store.StoreException;
import dev.braid.store.StoreLocation;
import dev.braid.store.StoreProvider;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The embedded default: opens the SQLite {@link Store} at a plain file path, any location that is
 * not a URL. Registered in {@code META-INF/services/dev.braid.store.StoreProvider}.
 */
public final class SqliteStoreProvider implements StoreProvider {
  /** For the {@link java.util.ServiceLoader}. */
  public SqliteStoreProvider() {}

  @Override
  public boolean accepts(String location) {
    return !StoreLocation.isUrl(location);
  }

  @Override
  public StateStore open(String location) {
    Path file;
    try {
      file = Path.of(location);
    } catch (InvalidPathException e) {
      throw new StoreException("cannot open state database " + location + ": not a file path (" + e.getReason() + ")", e);
    }
    return Store.open(file);
  }

  /** Loads the SQLite driver and its native library ({@link Store#loadDriver}). */
  @Override
  public void warmUp() {
    Store.loadDriver();
  }
}
