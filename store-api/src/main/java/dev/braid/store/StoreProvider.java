package dev.braid.store;

/**
 * Opens stores of one kind from a location string; found with {@link java.util.ServiceLoader}
 * (a {@code META-INF/services/dev.braid.store.StoreProvider} entry), so that a store module on
 * the class path is all an application needs to use it. {@code braid-state} provides the SQLite
 * store for plain file paths.
 *
 * <p>Implementations are stateless and thread-safe.
 */
public interface StoreProvider {
  /**
   * {@return whether this provider opens {@code location} (a path, or a URL of its scheme)} Cheap:
   * no I/O.
   *
   * @param location a file path or a store URL
   */
  boolean accepts(String location);

  /**
   * Opens (creating if needed) the store at {@code location} and brings its schema up to date.
   *
   * @param location a location this provider {@linkplain #accepts accepts}
   * @return the open store
   * @throws StoreException when it cannot be opened; the message names the location redacted
   *     ({@link StoreLocation#redact}), never with its password, and so does every message of its cause
   */
  StateStore open(String location);

  /**
   * Does now the once-per-process set-up that opening a store costs (a driver, a native library),
   * so that a later {@link #open} does only its location's work; failures are left for
   * {@code open} to report. Nothing by default.
   */
  default void warmUp() {}
}
