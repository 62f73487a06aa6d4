package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadEvent;
import dev.braid.client.DownloadView;
import dev.braid.client.GlobalOptions;
import dev.braid.client.MetalinkAdd;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Fleet;
import dev.braid.core.KnownHost;
import dev.braid.core.QueueOrder;
import dev.braid.core.Registration;
import dev.braid.store.DownloadState;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The daemon's own client as a relayed command uses it ({@link CommandRelay}): every call goes to
 * the daemon's engine until the daemon stops, and {@link #close()} lets go of nothing, as the daemon owns the engine. The
 * follows a command registers are taken back when it closes its client, so a command that ends
 * (or fails) leaves no listener behind on the engine.
 */
final class BorrowedClient implements BraidClient {
  private final BraidClient engine;
  private final BooleanSupplier stopping;
  private final List<Registration> follows = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** {@code stopping}: true once the daemon stops, and every call is refused as a daemon gone away would refuse it. */
  BorrowedClient(BraidClient engine, BooleanSupplier stopping) {
    this.engine = engine;
    this.stopping = stopping;
  }

  /** The engine, while the daemon runs. */
  private BraidClient engine() throws ClientException {
    if (stopping.getAsBoolean()) {
      throw new ClientException(ClientException.Reason.UNREACHABLE, "the braid daemon is stopping", null);
    }
    return engine;
  }

  @Override
  public List<Long> add(List<DownloadRequest> requests, boolean paused) throws ClientException {
    return engine().add(requests, paused);
  }

  @Override
  public List<Long> addMetalink(MetalinkAdd metalink, boolean paused) throws ClientException {
    return engine().addMetalink(metalink, paused);
  }

  @Override
  public List<DownloadView> page(Set<DownloadState> states, QueueOrder order, long offset, int limit) throws ClientException {
    return engine().page(states, order, offset, limit);
  }

  @Override
  public Optional<DownloadView> download(long id) throws ClientException {
    return engine().download(id);
  }

  @Override
  public Map<DownloadState, Long> counts() throws ClientException {
    return engine().counts();
  }

  @Override
  public void pause(long id) throws ClientException {
    engine().pause(id);
  }

  @Override
  public void resume(long id) throws ClientException {
    engine().resume(id);
  }

  @Override
  public void remove(long id, boolean deleteFile) throws ClientException {
    engine().remove(id, deleteFile);
  }

  @Override
  public void changeUrl(long id, URI url) throws ClientException {
    engine().changeUrl(id, url);
  }

  @Override
  public Registration follow(Consumer<DownloadEvent> events) throws ClientException {
    Registration r = engine().follow(events);
    follows.add(r);
    return () -> {
      follows.remove(r);
      r.close();
    };
  }

  @Override
  public GlobalOptions globalOptions() throws ClientException {
    return engine().globalOptions();
  }

  @Override
  public void changeGlobalOptions(GlobalOptions options) throws ClientException {
    engine().changeGlobalOptions(options);
  }

  @Override
  public List<KnownHost> hosts(int limit) throws ClientException {
    return engine().hosts(limit);
  }

  @Override
  public Fleet fleet() throws ClientException {
    return engine().fleet();
  }

  /** Takes back this command's follows; the engine runs on. */
  @Override
  public void close() {
    follows.forEach(Registration::close);
    follows.clear();
  }
}
