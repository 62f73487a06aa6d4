package dev.braid.core;

import java.util.HexFormat;

/**
 * A download's gid, as aria2 names downloads: its {@link Download#id()} in 16 lower-case hex digits.
 * The id is the queue entry's, so a gid stays the same across restarts and names the same entry as
 * {@code braid list}. The JSON-RPC server, the CLI and the desktop app all print and read gids
 * through this class, so they agree on the form.
 */
public final class Gid {
  private static final HexFormat HEX = HexFormat.of();

  private Gid() {}

  /**
   * Formats an id as a gid, zero-padded to 16 digits. Not String.format: it parses its pattern on
   * every call, and a batch of small files names each download in two notifications, a list of
   * 1,000 in 1,000 statuses (the queue's thread spent 4 % of its time there, in the daemon fetching
   * 1,000 x 100 KiB).
   *
   * @param id a download's (or queue entry's) id
   * @return the id's 16 lower-case hex digits
   */
  public static String of(long id) {
    return HEX.toHexDigits(id);
  }

  /**
   * Reads a gid back as the id it names, as aria2 reads one: exactly 16 hex digits (a shorter unique
   * prefix is not accepted, nor a sign).
   *
   * @param gid the text to read
   * @return the id the gid names
   * @throws IllegalArgumentException when {@code gid} is null or not 16 hex digits
   */
  public static long parse(String gid) {
    if (gid == null || gid.length() != 16) {
      throw new IllegalArgumentException("not a gid (16 hex digits): " + gid);
    }
    try {
      return HexFormat.fromHexDigitsToLong(gid);
    } catch (NumberFormatException e) {
      // HexFormat's own text names one character ("not a hexadecimal digit: "!" = 33")
      throw new IllegalArgumentException("not a gid (16 hex digits): " + gid, e);
    }
  }
}
