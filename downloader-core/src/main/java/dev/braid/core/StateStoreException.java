package dev.braid.core;

/**
 * The state database could not be read or written: another process held it past the busy
 * timeout, or it is corrupted or gone. Thrown by the {@link Braid} and {@link Download} methods
 * that read or change the queue; unchecked because any of them can meet it, as an
 * {@link java.io.UncheckedIOException} would be. The command line reports it with the local-file
 * exit code (6). Nothing downloaded is lost: the store is only consulted, the files stay.
 */
public final class StateStoreException extends RuntimeException {
  /**
   * A state database failure described by {@code message}, caused by {@code cause}.
   *
   * @param message what happened, in one line a user can act on
   * @param cause the underlying failure, or null
   */
  public StateStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
