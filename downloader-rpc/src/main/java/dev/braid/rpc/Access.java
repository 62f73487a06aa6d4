package dev.braid.rpc;

import java.io.IOException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/**
 * Who a call's {@code token:...} lets in: the secret (everything), an API key of the daemon's
 * {@link KeyFile} (its {@link Scope}), or no one. Keys are compared by their SHA-256 in constant
 * time; {@link #noteUse} records a key's use ({@link KeyFile#recordUse}, once a minute at most).
 * Thread-safe: the transports' worker threads call it.
 */
final class Access {
  /** What a right token grants: the key it is (null for the secret) and its scope. */
  record Grant(ApiKey key, Scope scope) {
    static final Grant SECRET = new Grant(null, Scope.FULL);
  }

  private final Secret secret;
  private final CurrentKeys keys;

  /** @param keys the daemon's keys, or null for none (the secret alone) */
  Access(Secret secret, CurrentKeys keys) {
    this.secret = secret;
    this.keys = keys;
  }

  /** What {@code token} ({@code token:SECRET} or {@code token:KEY}) grants, or null when it is neither. */
  Grant check(String token) {
    if (secret.matches(token)) {
      return Grant.SECRET;
    }
    if (keys == null || token == null || !token.startsWith(Secret.PREFIX)) {
      return null;
    }
    byte[] hash = sha256(token.substring(Secret.PREFIX.length()));
    ApiKey found = null;
    for (ApiKey k : keys.now()) {
      // every key compared, in constant time each: how long a check takes says nothing of which matched
      if (MessageDigest.isEqual(hash, HexFormat.of().parseHex(k.sha256()))) {
        found = k;
      }
    }
    return found == null ? null : new Grant(found, found.scope());
  }

  /** Whether {@code grant} still holds: the secret's always, a key's until it is revoked. */
  boolean holds(Grant grant) {
    if (grant == null) {
      return false;
    }
    if (grant.key() == null) {
      return true;
    }
    List<ApiKey> now = keys.now();
    return now.stream().anyMatch(k -> k.name().equals(grant.key().name()) && k.sha256().equals(grant.key().sha256()));
  }

  /**
   * Records that a call was let in by {@code grant}, when a key did it: outside the guess limiter's
   * lock, since it may write the keys file.
   */
  void noteUse(Grant grant) {
    if (grant.key() == null) {
      return;
    }
    try {
      keys.file().recordUse(grant.key());
    } catch (IOException e) {
      // the last use is for the owner's information only: the call goes on without it
    }
  }

  private static byte[] sha256(String key) {
    return HexFormat.of().parseHex(KeyFile.sha256(key));
  }
}
