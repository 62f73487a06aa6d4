package dev.braid.state;

/** The state database could not be opened, read or written; the message names the file and the cause. */
public final class StoreException extends RuntimeException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
