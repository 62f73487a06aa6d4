package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.braid.client.ClientException;
import dev.braid.client.LocalClient;
import dev.braid.client.MetalinkAdd;
import dev.braid.client.remote.EntryForm;
import dev.braid.client.remote.FleetForm;
import dev.braid.client.remote.GlobalOptionsForm;
import dev.braid.client.remote.RequestForm;
import dev.braid.client.remote.RpcNames;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Gid;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.Progress;
import dev.braid.core.QueueOrder;
import dev.braid.store.DownloadState;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What aria2 has no method for, under {@code braid.*} ({@link RpcNames}): the client port
 * ({@code dev.braid.client.BraidClient}) of Braid's own faces, served by a
 * {@link LocalClient} over this engine, so that a face does through the daemon exactly what it
 * does in-process; the entries in {@link EntryForm}'s shape. Errors: {@link RpcNames#NOT_FOUND}
 * ("GID ... is not found"), {@link RpcNames#INVALID}, else aria2's code 1.
 * <ul>
 *   <li>{@code braid.add(requests, paused)}, {@code braid.addMetalink({url|document, folder,
 *       selection}, paused)}: all added in one transaction or none, under the daemon's host rules
 *       and into its folders only; the gids.
 *   <li>{@code braid.tellEntry(gid)}, {@code braid.tellEntries(offset, num)} (oldest first; without
 *       arguments, all of them), {@code braid.page(states, order, offset, limit)}, {@code braid.counts()}.
 *   <li>{@code braid.pause(gid)}, {@code braid.resume(gid)}, {@code braid.remove(gid, deleteFile)}
 *       (with its file when deleteFile is "true"), {@code braid.changeUrl(gid, url)}.
 *   <li>{@code braid.globalOptions()}, {@code braid.changeGlobalOptions(options)} ({@code GlobalOptionsForm}).
 *   <li>{@code braid.hosts(limit)} (100 without one), {@code braid.fleet()}: what the engine remembers per
 *       host and the workers sharing its store ({@code FleetForm}).
 *   <li>{@code braid.tellSegments(gid)}: the ranges a running download is split into, each
 *       {@code {start, end, completedLength, active}} (strings, as aria2's values; end is
 *       exclusive, "-1" while the length is unknown); empty when it is not running.
 * </ul>
 */
final class BraidMethods {
  /** The hosts {@code braid.hosts} lists when the call names no limit. */
  private static final int DEFAULT_HOSTS = 100;

  private final Braid braid;
  private final QueueView queue;
  private final LocalClient port;
  private final ObjectMapper mapper;

  BraidMethods(Braid braid, QueueView queue, LocalClient port, ObjectMapper mapper) {
    this.braid = braid;
    this.queue = queue;
    this.port = port;
    this.mapper = mapper;
  }

  void addTo(Dispatcher d) {
    d.add(RpcNames.TELL_SEGMENTS, p -> segments(queue.find(p.gid(0))));
    d.add(RpcNames.TELL_ENTRY, p -> entry(find(p.gid(0))));
    d.add(RpcNames.TELL_ENTRIES, p -> {
      int offset = p.has(0) ? p.integer(0) : 0;
      int num = p.has(1) ? p.integer(1) : Integer.MAX_VALUE;
      return entries(queue.all(offset, Math.max(0, num)));
    });
    d.add(RpcNames.PAGE, this::page);
    d.add(RpcNames.COUNTS, p -> {
      ObjectNode o = NODES.objectNode();
      queue.counts().forEach((s, n) -> o.put(s.name().toLowerCase(Locale.ROOT), n));
      return o;
    });
    d.add(RpcNames.ADD, this::add);
    d.add(RpcNames.ADD_METALINK, this::addMetalink);
    d.add(RpcNames.PAUSE, p -> act(p, () -> port.pause(p.gid(0))));
    d.add(RpcNames.RESUME, p -> act(p, () -> port.resume(p.gid(0))));
    d.add(RpcNames.REMOVE, p -> act(p, () -> port.remove(p.gid(0), p.has(1) && "true".equals(p.string(1)))));
    d.add(RpcNames.CHANGE_URL, p -> act(p, () -> port.changeUrl(p.gid(0), url(p.string(1)))));
    d.add(RpcNames.HOSTS, p -> {
      int limit = p.has(0) ? p.integer(0) : DEFAULT_HOSTS;
      try {
        return mapper.valueToTree(FleetForm.ofHosts(port.hosts(limit)));
      } catch (ClientException e) {
        throw answer(e, null);
      }
    });
    d.add(RpcNames.FLEET, p -> {
      try {
        return mapper.valueToTree(FleetForm.of(port.fleet()));
      } catch (ClientException e) {
        throw answer(e, null);
      }
    });
    d.add(RpcNames.GLOBAL_OPTIONS, p -> mapper.valueToTree(GlobalOptionsForm.of(port.globalOptions())));
    d.add(RpcNames.CHANGE_GLOBAL_OPTIONS, p -> {
      try {
        port.changeGlobalOptions(GlobalOptionsForm.read(map(p.object(0))));
      } catch (IllegalArgumentException e) {
        throw new RpcException(RpcNames.INVALID, e.getMessage());
      } catch (ClientException e) {
        throw answer(e, null);
      }
      return TextNode.valueOf("OK");
    });
  }

  /** A call of the port that acts on one download: its gid, or the port's refusal. */
  private interface Action {
    void run() throws ClientException, RpcException;
  }

  private JsonNode act(Params p, Action action) throws RpcException {
    String gid = p.string(0);
    try {
      action.run();
    } catch (ClientException e) {
      throw answer(e, gid);
    }
    return TextNode.valueOf(gid);
  }

  private JsonNode add(Params p) throws RpcException {
    List<DownloadRequest> requests = new ArrayList<>();
    for (JsonNode r : p.array(0)) {
      if (!r.isObject()) {
        throw new RpcException(RpcNames.INVALID, "each request of " + RpcNames.ADD + " must be a struct");
      }
      try {
        requests.add(RequestForm.read(map((ObjectNode) r)));
      } catch (InvalidRequestException e) {
        throw new RpcException(RpcNames.INVALID, e.getMessage());
      }
    }
    try {
      return gids(port.add(requests, p.flag(1)));
    } catch (ClientException e) {
      throw answer(e, null);
    }
  }

  private JsonNode addMetalink(Params p) throws RpcException {
    ObjectNode m = p.object(0);
    Set<Integer> selection = new HashSet<>();
    m.path("selection").forEach(i -> selection.add(i.asInt()));
    MetalinkAdd add;
    try {
      add = new MetalinkAdd(m.hasNonNull("url") ? url(m.get("url").asText()) : null,
          m.hasNonNull("document") ? Base64.getDecoder().decode(m.get("document").asText()) : null,
          Path.of(m.path("folder").asText()), selection);
    } catch (IllegalArgumentException e) {
      throw new RpcException(RpcNames.INVALID, RpcNames.ADD_METALINK + ": " + e.getMessage());
    }
    try {
      return gids(port.addMetalink(add, p.flag(1)));
    } catch (ClientException e) {
      throw answer(e, null);
    }
  }

  private JsonNode page(Params p) throws RpcException {
    Set<DownloadState> states = EnumSet.noneOf(DownloadState.class);
    QueueOrder order;
    try {
      p.strings(0).forEach(s -> states.add(DownloadState.valueOf(s.toUpperCase(Locale.ROOT))));
      order = QueueOrder.valueOf(p.string(1));
    } catch (IllegalArgumentException e) {
      throw new RpcException(RpcNames.INVALID, "no such state or order: " + e.getMessage());
    }
    int limit = p.integer(3);
    if (limit < 1) {
      throw new RpcException(RpcNames.INVALID, "a page holds at least one download, not " + limit);
    }
    int offset = p.has(2) ? p.integer(2) : 0;
    return entries(braid.downloads(states, order, offset, limit));
  }

  private Download find(long id) throws RpcException {
    return braid.download(id).orElseThrow(() -> notFound(Gid.of(id)));
  }

  private static RpcException notFound(String gid) {
    return new RpcException(RpcNames.NOT_FOUND, "GID " + gid + " is not found");
  }

  /** The port's refusal as the daemon answers it; {@code gid}, when the call named one, for aria2's not-found text. */
  private static RpcException answer(ClientException e, String gid) {
    return switch (e.reason()) {
      case NOT_FOUND -> gid != null ? notFound(gid) : new RpcException(RpcNames.NOT_FOUND, e.getMessage());
      case INVALID -> new RpcException(RpcNames.INVALID, e.getMessage());
      default -> RpcException.failed(e.getMessage());
    };
  }

  private static URI url(String text) throws RpcException {
    try {
      return new URI(text);
    } catch (java.net.URISyntaxException e) {
      throw new RpcException(RpcNames.INVALID, "not a URL: " + text);
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> map(ObjectNode node) {
    return mapper.convertValue(node, Map.class);
  }

  private static ArrayNode gids(List<Long> ids) {
    ArrayNode a = NODES.arrayNode();
    ids.forEach(id -> a.add(Gid.of(id)));
    return a;
  }

  private ArrayNode entries(List<Download> downloads) {
    ArrayNode a = NODES.arrayNode();
    downloads.forEach(d -> a.add(entry(d)));
    return a;
  }

  private JsonNode entry(Download d) {
    return mapper.valueToTree(EntryForm.of(d));
  }

  private static JsonNode segments(Download d) {
    ArrayNode a = NODES.arrayNode();
    if (d.state() != DownloadState.ACTIVE) {
      // a settled download's progress keeps its last run's segments, the last one still marked at work
      return a;
    }
    for (Progress.Segment s : d.progress().segments()) {
      a.add(NODES.objectNode().put("start", Long.toString(s.start())).put("end", Long.toString(s.end()))
          .put("completedLength", Long.toString(s.done())).put("active", Boolean.toString(s.active())));
    }
    return a;
  }
}
