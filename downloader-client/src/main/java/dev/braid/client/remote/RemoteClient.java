package dev.braid.client.remote;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.ClientException.Reason;
import dev.braid.client.DownloadEvent;
import dev.braid.client.DownloadView;
import dev.braid.client.GlobalOptions;
import dev.braid.client.MetalinkAdd;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Fleet;
import dev.braid.core.Gid;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.KnownHost;
import dev.braid.core.QueueOrder;
import dev.braid.core.Registration;
import dev.braid.store.DownloadState;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The port over a running {@code braid daemon}: each call one {@code braid.*} method of its
 * JSON-RPC ({@link RpcNames}), on one connection ({@link RpcClient}: the daemon's local socket,
 * else a WebSocket to its port) that also carries aria2's notifications, which {@link #follow}
 * turns into events. The daemon does on its side what {@link dev.braid.client.LocalClient} does
 * in-process (its host rules, folders, one transaction per add), so a face sees the same either way.
 *
 * <p>Threads: the connection's reader, which completes calls and runs the followers in order;
 * {@link #close()} ends it and leaves the daemon running.
 */
public final class RemoteClient implements BraidClient {
  private final List<Consumer<DownloadEvent>> followers = new CopyOnWriteArrayList<>();
  private final RpcClient rpc;

  private RemoteClient(DaemonLink.Endpoint endpoint) throws IOException {
    this.rpc = RpcClient.connect(endpoint, this::heard);
  }

  /**
   * Connects to the daemon at {@code endpoint} ({@link DaemonLink#find} gives it).
   *
   * @param endpoint the daemon's port, secret and local socket
   * @return the client
   * @throws ClientException UNREACHABLE when neither its socket nor its port answers
   */
  public static RemoteClient connect(DaemonLink.Endpoint endpoint) throws ClientException {
    try {
      return new RemoteClient(endpoint);
    } catch (IOException e) {
      throw new ClientException(Reason.UNREACHABLE, "cannot reach the braid daemon: " + e.getMessage(), e);
    }
  }

  /**
   * Loads what the first call needs (the JSON library, the local socket's classes) on a daemon
   * thread of its own while the face does other work: a launcher's optimisation, never needed.
   */
  public static void warmUp() {
    RpcClient.warmUp();
  }

  @Override
  public List<Long> add(List<DownloadRequest> requests, boolean paused) throws ClientException {
    List<Object> forms = new ArrayList<>();
    requests.forEach(r -> forms.add(RequestForm.of(r)));
    return ids(call(RpcNames.ADD, forms, paused));
  }

  @Override
  public List<Long> addMetalink(MetalinkAdd metalink, boolean paused) throws ClientException {
    Map<String, Object> m = new LinkedHashMap<>();
    if (metalink.url() != null) {
      m.put("url", metalink.url().toString());
    } else {
      m.put("document", Base64.getEncoder().encodeToString(metalink.document()));
    }
    m.put("folder", metalink.folder().toAbsolutePath().toString());
    m.put("selection", List.copyOf(metalink.selection()));
    return ids(call(RpcNames.ADD_METALINK, m, paused));
  }

  @Override
  public List<DownloadView> page(Set<DownloadState> states, QueueOrder order, long offset, int limit) throws ClientException {
    List<String> names = states.stream().map(s -> s.name().toLowerCase(Locale.ROOT)).toList();
    List<DownloadView> out = new ArrayList<>();
    for (RpcValue e : call(RpcNames.PAGE, names, order.name(), offset, limit)) {
      out.add(view(e));
    }
    return out;
  }

  @Override
  public Optional<DownloadView> download(long id) throws ClientException {
    try {
      return Optional.of(view(call(RpcNames.TELL_ENTRY, Gid.of(id))));
    } catch (ClientException e) {
      if (e.reason() == Reason.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public Map<DownloadState, Long> counts() throws ClientException {
    RpcValue counts = call(RpcNames.COUNTS);
    Map<DownloadState, Long> out = new EnumMap<>(DownloadState.class);
    for (DownloadState s : DownloadState.values()) {
      String name = s.name().toLowerCase(Locale.ROOT);
      if (counts.has(name)) {
        out.put(s, counts.path(name).asLong());
      }
    }
    return out;
  }

  @Override
  public void pause(long id) throws ClientException {
    call(RpcNames.PAUSE, Gid.of(id));
  }

  @Override
  public void resume(long id) throws ClientException {
    call(RpcNames.RESUME, Gid.of(id));
  }

  @Override
  public void remove(long id, boolean deleteFile) throws ClientException {
    call(RpcNames.REMOVE, Gid.of(id), Boolean.toString(deleteFile));
  }

  @Override
  public void changeUrl(long id, URI url) throws ClientException {
    call(RpcNames.CHANGE_URL, Gid.of(id), url.toString());
  }

  /** Events from the moment of the call; the connection has carried them since it opened, in order. */
  @Override
  public Registration follow(Consumer<DownloadEvent> events) {
    followers.add(events);
    return () -> followers.remove(events);
  }

  @Override
  public GlobalOptions globalOptions() throws ClientException {
    try {
      return GlobalOptionsForm.read(call(RpcNames.GLOBAL_OPTIONS));
    } catch (IllegalArgumentException e) {
      throw new ClientException(Reason.FAILED, "the daemon's global options cannot be read: " + e.getMessage(), e);
    }
  }

  @Override
  public void changeGlobalOptions(GlobalOptions options) throws ClientException {
    call(RpcNames.CHANGE_GLOBAL_OPTIONS, GlobalOptionsForm.of(options));
  }

  @Override
  public List<KnownHost> hosts(int limit) throws ClientException {
    RpcValue hosts = call(RpcNames.HOSTS, limit);
    try {
      return FleetForm.readHosts(hosts);
    } catch (IllegalArgumentException e) {
      throw new ClientException(Reason.FAILED, "the daemon's hosts cannot be read: " + e.getMessage(), e);
    }
  }

  @Override
  public Fleet fleet() throws ClientException {
    RpcValue fleet = call(RpcNames.FLEET);
    try {
      return FleetForm.readFleet(fleet);
    } catch (IllegalArgumentException e) {
      throw new ClientException(Reason.FAILED, "the daemon's fleet cannot be read: " + e.getMessage(), e);
    }
  }

  /** Ends the connection; the daemon and its downloads run on. */
  @Override
  public void close() {
    rpc.close();
  }

  /** The connection's reader thread: a notification of a download's event, to every follower. */
  private void heard(RpcClient.Notification n) {
    DownloadEvent.Kind kind = RpcNames.EVENTS.get(n.method());
    if (kind == null) {
      return;
    }
    long id;
    try {
      id = Gid.parse(n.gid());
    } catch (IllegalArgumentException e) {
      // the daemon sends gids only: anything else names no download of the port
      return;
    }
    DownloadEvent event = new DownloadEvent(id, kind);
    followers.forEach(f -> f.accept(event));
  }

  private RpcValue call(String method, Object... params) throws ClientException {
    try {
      return rpc.call(method, params);
    } catch (IOException e) {
      throw new ClientException(Reason.UNREACHABLE, e.getMessage(), e);
    } catch (RpcClient.RpcError e) {
      throw new ClientException(reason(e), e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClientException(Reason.FAILED, "interrupted while waiting for the braid daemon's answer to " + method, e);
    }
  }

  /** The port's reason for a daemon's error answer ({@link RpcNames}' codes). */
  private static Reason reason(RpcClient.RpcError e) {
    if (e.code == RpcNames.NOT_FOUND) {
      return Reason.NOT_FOUND;
    }
    if (e.code == RpcNames.INVALID) {
      return Reason.INVALID;
    }
    if (e.code == RpcNames.FAILED && e.getMessage() != null && e.getMessage().startsWith(RpcNames.UNAUTHORIZED)) {
      return Reason.UNAUTHORIZED;
    }
    return Reason.FAILED;
  }

  private static List<Long> ids(RpcValue gids) throws ClientException {
    List<Long> out = new ArrayList<>();
    for (RpcValue g : gids) {
      try {
        out.add(Gid.parse(g.asText()));
      } catch (IllegalArgumentException e) {
        throw new ClientException(Reason.FAILED, "the daemon answered an add with '" + g.asText() + "', no gid", e);
      }
    }
    return out;
  }

  private static DownloadView view(RpcValue entry) throws ClientException {
    try {
      return EntryForm.view(entry);
    } catch (InvalidRequestException | IllegalArgumentException e) {
      throw new ClientException(Reason.FAILED, "the daemon's entry cannot be read: " + e.getMessage(), e);
    }
  }
}
