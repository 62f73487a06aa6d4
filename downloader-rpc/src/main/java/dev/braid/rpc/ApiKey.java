package dev.braid.rpc;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One API key of a daemon, as its {@link KeyFile} keeps it: never the key itself, only its
 * SHA-256. A key is presented as the secret is ({@code token:KEY} first in a call's params).
 *
 * @param name what its owner calls it: letters, digits, {@code . _ -}, up to 64
 * @param scope what it may do
 * @param created when it was made
 * @param lastUsed when a call last carried it, to the minute ({@link KeyFile#USE_GRANULARITY}); empty if never
 * @param sha256 the SHA-256 of the key's text, in lower-case hex
 */
public record ApiKey(String name, Scope scope, Instant created, Optional<Instant> lastUsed, String sha256) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

  /** Checks every part. */
  public ApiKey {
    checkName(name);
    if (scope == null || created == null || lastUsed == null) {
      throw new IllegalArgumentException("a key needs its scope, creation time and last use (empty)");
    }
    if (sha256 == null || !HEX.matcher(sha256).matches()) {
      throw new IllegalArgumentException("a key's SHA-256 is 64 lower-case hex digits");
    }
  }

  /** Refuses a name that is not 1 to 64 letters, digits, dots, underscores or hyphens. */
  static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a key's name is 1 to 64 letters, digits, '.', '_' or '-', not '" + name + "'");
    }
  }

  /** This key, last used at {@code at}. */
  ApiKey usedAt(Instant at) {
    return new ApiKey(name, scope, created, Optional.of(at), sha256);
  }
}
