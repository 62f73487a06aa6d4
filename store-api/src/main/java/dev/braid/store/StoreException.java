package dev.braid.store;

/**
 * The store could not be opened, read or written; the message names the store by its
 * {@linkplain StateStore#location() location} (never with a password) and the cause.
 */
public final class StoreException extends RuntimeException {
  /**
   * A failure described by {@code message}, caused by {@code cause} (null when none).
   *
   * @param message what failed, naming the store by its location
   * @param cause the underlying failure, or null
   */
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
