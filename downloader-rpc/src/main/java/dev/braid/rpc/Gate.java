package dev.braid.rpc;

import dev.braid.client.remote.RpcNames;

/**
 * Who gets in: a call's token (the secret or an API key, {@link Access}) checked through the
 * {@link GuessLimiter}, and its method weighed against the token's {@link Scope}. A connection
 * that has shown a right token ({@link Caller#proven}) is checked at once; any other check goes
 * through the limiter, which may refuse it unchecked: keys are priced as the secret is.
 * Thread-safe.
 */
final class Gate {
  /** aria2's answer to a wrong secret (code 1). */
  static final String UNAUTHORIZED = RpcNames.UNAUTHORIZED;
  /** The answer to a call refused unchecked ({@link GuessLimiter}): code 1, as aria2's Unauthorized. */
  static final String TOO_MANY_GUESSES = "Unauthorized: too many wrong secrets from this address, try again in a second";

  private final Access access;
  private final GuessLimiter guesses;

  Gate(Access access, GuessLimiter guesses) {
    this.access = access;
    this.guesses = guesses;
  }

  /**
   * What {@code token} grants {@code caller} for a call of {@code method}; the caller's connection
   * is noted as proven, and a key's use recorded.
   *
   * @param kept run when the token was wrong or refused unchecked (the transports hold that answer back)
   * @throws RpcException Unauthorized (wrong, or refused unchecked: code 1), or {@link RpcNames#FORBIDDEN}
   *     for a method outside the token's scope
   */
  Access.Grant admit(String token, String method, Caller caller, Runnable kept) throws RpcException {
    Access.Grant g = caller.proven() ? access.check(token) : null;
    if (g == null) {
      Access.Grant[] granted = new Access.Grant[1];
      switch (guesses.check(caller.address(), () -> (granted[0] = access.check(token)) != null)) {
        case RIGHT -> g = granted[0];
        case WRONG -> {
          kept.run();
          throw RpcException.failed(UNAUTHORIZED);
        }
        case REFUSED -> {
          kept.run();
          throw RpcException.failed(TOO_MANY_GUESSES);
        }
      }
    }
    caller.prove(g);
    // outside the limiter's lock: it may write the keys file
    access.noteUse(g);
    if (!g.scope().allows(method)) {
      throw new RpcException(RpcNames.FORBIDDEN, RpcNames.FORBIDDEN_TEXT + method);
    }
    return g;
  }

  /** Whether notifications may go to {@code caller}: it has shown a token that still holds (a key not revoked since). */
  boolean hears(Caller caller) {
    return access.holds(caller.grant());
  }
}
