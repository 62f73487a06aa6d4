package dev.braid.core.internal.report;

import dev.braid.core.KnownHost;
import dev.braid.store.HostKnowledge;
import dev.braid.store.HostMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The hosts the store remembers as {@link KnownHost}s, with what each HTTP version delivered. */
public final class HostReport {
  /** How the store marks what was learned over HTTP/2 streams ({@link HostMemory#host()}). */
  private static final String HTTP2_MARK = " h2";

  private HostReport() {}

  /**
   * {@return the hosts most recently learned about first, at most {@code limit}}
   *
   * @param hosts the store's host knowledge
   * @param limit the most hosts (positive)
   */
  public static List<KnownHost> read(HostKnowledge hosts, int limit) {
    List<KnownHost> known = new ArrayList<>();
    for (HostMemory m : hosts.recent(limit)) {
      boolean h2 = m.host().endsWith(HTTP2_MARK);
      String host = h2 ? m.host().substring(0, m.host().length() - HTTP2_MARK.length()) : m.host();
      List<KnownHost.Protocol> protocols = hosts.protocols(host).stream()
          .map(p -> new KnownHost.Protocol(p.protocol(), p.offered(), p.bytesPerSecond()))
          .toList();
      known.add(new KnownHost(host, h2, m.limit(), m.connections(), m.bytesPerSecond(),
          Instant.ofEpochMilli(m.updatedMillis()), protocols));
    }
    return known;
  }
}
