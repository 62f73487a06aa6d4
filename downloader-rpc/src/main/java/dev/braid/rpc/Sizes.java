package dev.braid.rpc;

import dev.braid.core.ByteSize;

/** An aria2 size option ({@code 1M}, {@code 500K}, a byte count) read as {@link ByteSize} does, as a call's failure. */
final class Sizes {
  private Sizes() {}

  static long parse(String option, String value) throws RpcException {
    try {
      return ByteSize.parse(value);
    } catch (IllegalArgumentException e) {
      throw RpcException.failed("option " + option + ": " + e.getMessage());
    }
  }
}
