package dev.braid.store.contract;

import dev.braid.store.StateStore;
import dev.braid.store.StoreLocation;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Opens the store of one contract test, through {@link StoreLocation} as the engine does, and
 * closes every view of it after the test. A test has one new store ({@link #open}); each view
 * opened again from its location ({@link #another}) stands for another process sharing the data
 * (its own connections). One store per test lets a server store empty one database for each test
 * instead of creating one.
 */
public final class StoreFixture {
  /** Where a new, empty store lives: a new database file, or a new database of a server. */
  @FunctionalInterface
  public interface Locations {
    /**
     * {@return a location no store has used yet}
     *
     * @throws Exception when the location cannot be made
     */
    String next() throws Exception;
  }

  private final Locations locations;
  private final Map<StateStore, String> opened = new IdentityHashMap<>();
  /** The test's store's location; null until {@link #open}. */
  private String location;

  /**
   * A fixture whose new stores live where {@code locations} says.
   *
   * @param locations the source of new, empty locations
   */
  public StoreFixture(Locations locations) {
    this.locations = locations;
  }

  /**
   * {@return the test's new, empty store}
   *
   * @throws IllegalStateException when the test opened its store already
   * @throws Exception when no location could be made
   */
  public StateStore open() throws Exception {
    if (location != null) {
      throw new IllegalStateException("a contract test has one store (open another view of it with another())");
    }
    location = locations.next();
    return open(location);
  }

  /**
   * {@return another process's view of the data of {@code store} (which may be closed by now)}
   *
   * @param store a store this fixture opened
   */
  public StateStore another(StateStore store) {
    String location = opened.get(store);
    if (location == null) {
      throw new IllegalArgumentException("not opened by this fixture: " + store);
    }
    return open(location);
  }

  private StateStore open(String location) {
    StateStore s = StoreLocation.open(location);
    opened.put(s, location);
    return s;
  }

  /** Closes every view of the store this fixture opened (closing one twice is allowed by the stores). */
  public void closeAll() {
    List<RuntimeException> failures = new ArrayList<>();
    for (StateStore s : opened.keySet()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    opened.clear();
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }
}
