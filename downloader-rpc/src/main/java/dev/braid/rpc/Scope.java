package dev.braid.rpc;

import dev.braid.client.remote.RpcNames;
import java.util.Set;

/**
 * What a credential of the RPC may do: the secret and a full key anything, a read-only key only
 * the methods that change nothing ({@link #READS}); a method not listed there, a new one too,
 * is refused to it with {@link RpcNames#FORBIDDEN}.
 */
public enum Scope {
  /** Every method, as the secret. */
  FULL("full"),
  /** Reading the queue, its entries and options, and hearing the notifications; nothing that changes them. */
  READ_ONLY("read-only");

  /** The methods a read-only credential may call (the open {@code system.*} ones need none). */
  static final Set<String> READS = Set.of("aria2.tellStatus", "aria2.tellActive", "aria2.tellWaiting", "aria2.tellStopped",
      "aria2.getGlobalStat", "aria2.getVersion", "aria2.getUris", "aria2.getFiles", "aria2.getPeers", "aria2.getServers",
      "aria2.getOption", "aria2.getGlobalOption", "aria2.getSessionInfo", "system.multicall", RpcNames.PAGE,
      RpcNames.COUNTS, RpcNames.TELL_ENTRY, RpcNames.TELL_ENTRIES, RpcNames.TELL_SEGMENTS, RpcNames.GLOBAL_OPTIONS,
      RpcNames.HOSTS, RpcNames.FLEET, RpcNames.WHOAMI);

  private final String text;

  Scope(String text) {
    this.text = text;
  }

  /** Whether a credential of this scope may call {@code method}. */
  boolean allows(String method) {
    return this == FULL || READS.contains(method);
  }

  /** Its name in the keys file, in {@code braid keys list} and in {@code braid.whoami}'s answer: "full", "read-only". */
  public String text() {
    return text;
  }

  /** The scope named {@code text} ({@link #text()}). */
  public static Scope of(String text) {
    for (Scope s : values()) {
      if (s.text.equals(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException("no scope named " + text + " (full or read-only)");
  }
}
