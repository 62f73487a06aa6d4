package dev.braid.client;

/** Why a {@link BraidClient} call did not do what it was asked, as a reason a face can act on. */
public final class ClientException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What went wrong, coarsely: each face turns it into an exit code or a message. */
  public enum Reason {
    /** The request was refused as given (a bad URL, option or document); nothing changed. */
    INVALID,
    /** No download has the id given. */
    NOT_FOUND,
    /** The daemon refused the secret. */
    UNAUTHORIZED,
    /** The daemon could not be reached, or went away during the call. */
    UNREACHABLE,
    /** The engine failed to do it (its store, a local file, a bug). */
    FAILED
  }

  private final Reason reason;

  /**
   * A refused call.
   *
   * @param reason why, coarsely
   * @param message what to tell the person, in a sentence
   * @param cause what the adapter caught, or null
   */
  public ClientException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    if (reason == null) {
      throw new IllegalArgumentException("a client exception needs a reason");
    }
    this.reason = reason;
  }

  /** {@return why, coarsely} */
  public Reason reason() {
    return reason;
  }
}
