package dev.braid.rpc;

import java.util.HexFormat;

/**
 * aria2's download ids: 16 lower-case hex digits. Here they are the queue's entry id, so a gid
 * stays the same across restarts of the daemon and names the same entry as {@code braid list}.
 */
final class Gid {
  private static final HexFormat HEX = HexFormat.of();

  private Gid() {}

  /**
   * The gid of entry {@code id}. Not String.format: it parses its pattern on every call, and a
   * batch of small files names each download in two notifications, a list of 1,000 in 1,000
   * statuses (the queue's thread spent 4 % of its time here, in the daemon fetching 1,000 x 100 KiB).
   */
  static String of(long id) {
    return HEX.toHexDigits(id);
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
