package dev.braid.core.internal.http;

import java.io.IOException;

/** Redirects that cannot be followed: retrying would meet the same loop or the same downgrade. */
public final class RedirectProblem extends IOException {
  RedirectProblem(String message, Throwable cause) {
    super(message, cause);
  }
}
