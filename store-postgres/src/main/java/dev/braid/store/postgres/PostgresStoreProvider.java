package dev.braid.store.postgres;

import dev.braid.store.StateStore;
import dev.braid.store.StoreProvider;

/**
 * Opens {@code postgresql://} (and {@code postgres://}) locations. Found by the
 * {@link java.util.ServiceLoader}; nothing of the driver is loaded until a location of this
 * scheme is opened, so an application with this module on its class path and a SQLite file as
 * its store pays one small class for it.
 */
public final class PostgresStoreProvider implements StoreProvider {
  /** For the {@link java.util.ServiceLoader}. */
  public PostgresStoreProvider() {}

  @Override
  public boolean accepts(String location) {
    return PostgresLocation.accepts(location);
  }

  @Override
  public StateStore open(String location) {
    return PostgresStore.open(location);
  }

  @Override
  public void warmUp() {
    RoleConnection.loadDriver();
  }
}
