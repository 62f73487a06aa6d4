package dev.braid.client.remote;

import dev.braid.core.Fleet;
import dev.braid.core.Gid;
import dev.braid.core.KnownHost;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's hosts and fleet as {@code braid.hosts} and {@code braid.fleet} answer them: a host
 * {@code {host, http2, limit, connections, bytesPerSecond, updated (epoch ms), protocols: [{name,
 * offered, bytesPerSecond}]}}; the fleet {@code {self, workers: [{name, alive, heartbeat (epoch ms
 * or null), gids}], grants: [{host, worker, connections}]}}. Numbers are JSON numbers: these are
 * Braid's own methods, not aria2's strings.
 */
public final class FleetForm {
  private FleetForm() {}

  /**
   * {@return {@code hosts} on the wire}
   *
   * @param hosts the hosts
   */
  public static List<Map<String, Object>> ofHosts(List<KnownHost> hosts) {
    List<Map<String, Object>> all = new ArrayList<>();
    for (KnownHost h : hosts) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("host", h.host());
      m.put("http2", h.overHttp2());
      m.put("limit", h.limit());
      m.put("connections", h.connections());
      m.put("bytesPerSecond", Math.round(h.bytesPerSecond()));
      m.put("updated", h.updated().toEpochMilli());
      m.put("protocols", h.protocols().stream().map(p -> Map.of("name", p.name(), "offered", p.offered(),
          "bytesPerSecond", Math.round(p.bytesPerSecond()))).toList());
      all.add(m);
    }
    return all;
  }

  /**
   * {@return {@code fleet} on the wire}
   *
   * @param fleet the fleet
   */
  public static Map<String, Object> of(Fleet fleet) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("self", fleet.self());
    m.put("workers", fleet.workers().stream().map(w -> {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("name", w.name());
      o.put("alive", w.alive());
      o.put("heartbeat", w.heartbeat() == null ? null : w.heartbeat().toEpochMilli());
      o.put("gids", w.downloads().stream().map(Gid::of).toList());
      return o;
    }).toList());
    m.put("grants", fleet.grants().stream().map(g -> Map.of("host", g.host(), "worker", g.worker(),
        "connections", g.connections())).toList());
    return m;
  }

  static List<KnownHost> readHosts(RpcValue hosts) {
    List<KnownHost> all = new ArrayList<>();
    for (RpcValue h : hosts) {
      List<KnownHost.Protocol> protocols = new ArrayList<>();
      for (RpcValue p : h.path("protocols")) {
        protocols.add(new KnownHost.Protocol(p.path("name").asText(), p.path("offered").asBoolean(),
            p.path("bytesPerSecond").asDouble()));
      }
      all.add(new KnownHost(h.path("host").asText(), h.path("http2").asBoolean(), h.path("limit").asInt(),
          h.path("connections").asInt(), h.path("bytesPerSecond").asDouble(),
          Instant.ofEpochMilli(h.path("updated").asLong()), protocols));
    }
    return all;
  }

  static Fleet readFleet(RpcValue fleet) {
    List<Fleet.Worker> workers = new ArrayList<>();
    for (RpcValue w : fleet.path("workers")) {
      List<Long> ids = new ArrayList<>();
      for (RpcValue g : w.path("gids")) {
        ids.add(Gid.parse(g.asText()));
      }
      RpcValue beat = w.path("heartbeat");
      workers.add(new Fleet.Worker(w.path("name").asText(), w.path("alive").asBoolean(),
          beat.isNumber() ? Instant.ofEpochMilli(beat.asLong()) : null, ids));
    }
    List<Fleet.Grant> grants = new ArrayList<>();
    for (RpcValue g : fleet.path("grants")) {
      grants.add(new Fleet.Grant(g.path("host").asText(), g.path("worker").asText(), g.path("connections").asInt()));
    }
    return new Fleet(fleet.path("self").asText(), workers, grants);
  }
}
