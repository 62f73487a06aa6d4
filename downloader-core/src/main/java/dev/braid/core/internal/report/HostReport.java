package dev.braid.core.internal.report;

import dev.braid.core.KnownHost;
import dev.braid.store.HostKnowledge;
import dev.braid.store.HostMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The hosts the store remembers as {@link KnownHost}s, with what each HTTP version delivered. */
public final class HostReport {
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
      String host = m.hostPort();
      List<KnownHost.Protocol> protocols = hosts.protocols(host).stream()
          .map(p -> new KnownHost.Protocol(p.protocol(), p.offered(), p.bytesPerSecond()))
          .toList();
      known.add(new KnownHost(host, m.overHttp2(), m.limit(), m.connections(), m.bytesPerSecond(),
          Instant.ofEpochMilli(m.updatedMillis()), protocols));
    }
    return known;
  }
}
