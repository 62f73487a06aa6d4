package dev.braid.rpc;

import java.util.Locale;

/**
 * aria2's download ids: 16 lower-case hex digits. Here they are the queue's entry id, so a gid
 * stays the same across restarts of the daemon and names the same entry as {@code braid list}.
 */
final class Gid {
  private Gid() {}

  static String of(long id) {
    return String.format(Locale.ROOT, "%016x", id);
  }

  /** The entry id of a gid, as aria2 reads one: 16 hex digits (a shorter unique prefix is not accepted). */
  static long parse(String gid) throws RpcException {
    if (gid == null || gid.length() != 16) {
      throw RpcException.failed("Bad GID " + gid);
    }
    try {
      return Long.parseUnsignedLong(gid, 16);
    } catch (NumberFormatException e) {
      throw RpcException.failed("Bad GID " + gid);
    }
  }
}
