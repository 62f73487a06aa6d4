package dev.braid.rpc;

import java.util.Locale;

/** aria2's sizes: a number of bytes with an optional K or M suffix (1024 and 1024^2). */
final class Sizes {
  private Sizes() {}

  static long parse(String option, String value) throws RpcException {
    String v = value.strip().toUpperCase(Locale.ROOT);
    long unit = 1;
    if (v.endsWith("K")) {
      unit = 1L << 10;
      v = v.substring(0, v.length() - 1);
    } else if (v.endsWith("M")) {
      unit = 1L << 20;
      v = v.substring(0, v.length() - 1);
    }
    try {
      long n = Long.parseLong(v);
      if (n < 0 || n > Long.MAX_VALUE / unit) {
        throw new NumberFormatException();
      }
      return n * unit;
    } catch (NumberFormatException e) {
      throw RpcException.failed("option " + option + ": '" + value + "' is not a size (bytes, or with K or M)");
    }
  }
}
