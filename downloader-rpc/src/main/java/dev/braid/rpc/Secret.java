package dev.braid.rpc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The RPC secret, checked in constant time against the {@code token:SECRET} a call starts with. */
final class Secret {
  static final String PREFIX = "token:";
  private final byte[] expected;

  Secret(String secret) {
    this.expected = (PREFIX + secret).getBytes(StandardCharsets.UTF_8);
  }

  boolean matches(String token) {
    return token != null && MessageDigest.isEqual(expected, token.getBytes(StandardCharsets.UTF_8));
  }
}
