package dev.braid.gui;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.LocalClient;
import dev.braid.client.remote.EngineLock;
import dev.braid.client.remote.SecretFile;
import dev.braid.client.remote.StateAnchor;
import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.LocalFileException;
import dev.braid.rpc.RpcServer;
import dev.braid.rpc.RpcSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * Which engine the app drives, chosen once: the window's {@link ClientQueue} is the same either
 * way, only its {@link BraidClient} differs. When no {@code braid daemon} holds the state
 * database's engine lock, the app takes it (so a daemon started later refuses), runs its own
 * engine behind a {@link LocalClient} and, when the setting says so, serves aria2's JSON-RPC on
 * loopback with the daemon's secret file, for browser extensions. When a daemon holds it, the
 * window is a remote client of that daemon; when that engine cannot be reached, the app runs its
 * own beside it (without lock or RPC), as before. {@link #close()} lets go in the reverse order.
 */
final class AppEngine implements AutoCloseable {
  private final ClientQueue queue;
  private final boolean attached;
  private final RpcServer server;
  private final EngineLock lock;
  private final String notice;

  private AppEngine(ClientQueue queue, boolean attached, RpcServer server, EngineLock lock, String notice) {
    this.queue = queue;
    this.attached = attached;
    this.server = server;
    this.lock = lock;
    this.notice = notice;
  }

  /**
   * Opens the engine of {@code stateLocation} (a file or a server database's URL): the app's own,
   * or the running daemon's. Its lock and secret files are named after {@link StateAnchor}. Blocking.
   *
   * @param tune adjusts the in-process engine's builder (tests shorten timeouts)
   * @param shutdownAsked runs when an RPC client asks the app's RPC to shut down
   */
  static AppEngine open(String stateDatabase, SnapshotCoalescer out, UnaryOperator<BraidBuilder> tune, Runnable shutdownAsked)
      throws LocalFileException, IOException, ClientException {
    return open(stateDatabase, out, tune, shutdownAsked, AppRules.none());
  }

  /**
   * As {@link #open(String, SnapshotCoalescer, UnaryOperator, Runnable)}, with the rules file: the
   * in-process engine gets its proxies and per-host caps, each added download its host's settings
   * (all fixed until the next start, as a daemon's), and the app's RPC its rules and categories. An
   * attached window leaves the rules to the daemon, which reads its own.
   */
  static AppEngine open(String stateDatabase, SnapshotCoalescer out, UnaryOperator<BraidBuilder> tune, Runnable shutdownAsked,
      AppRules rules) throws LocalFileException, IOException, ClientException {
    Path anchor = StateAnchor.of(stateDatabase);
    SettingsStore store = new SettingsStore(stateDatabase);
    GuiSettings settings = store.load();
    EngineLock lock;
    try {
      lock = EngineLock.acquire(anchor);
    } catch (EngineLock.EngineRunningException running) {
      Daemons.Found daemon = Daemons.find(anchor);
      if (daemon.client() != null) {
        return new AppEngine(ClientQueue.open(daemon.client(), settings, store, out), true, null, null, null);
      }
      // an engine without a reachable RPC (another window, a daemon without a secret file of ours):
      // run in-process beside it as before the lock, the store's locks keep them apart
      return new AppEngine(own(stateDatabase, settings, store, rules, tune, out, new AtomicReference<>()), false, null, null,
          "Another Braid runs this queue (" + running.getMessage() + ") and " + daemon.why()
              + ". This window runs its own engine beside it.");
    }
    ClientQueue queue = null;
    try {
      AtomicReference<Braid> braid = new AtomicReference<>();
      queue = own(stateDatabase, settings, store, rules, tune, out, braid);
      GuiSettings s = queue.settings();
      if (!s.rpc()) {
        return new AppEngine(queue, false, null, lock, null);
      }
      try {
        Files.createDirectories(s.folder());
        RpcSettings rpc = RpcSettings.builder(s.folder(), SecretFile.readOrCreate(SecretFile.fileOf(anchor))).port(s.rpcPort())
            .rules(rules.rules()).build();
        return new AppEngine(queue, false, RpcServer.start(braid.get(), rpc, shutdownAsked), lock, null);
      } catch (IOException e) {
        // the downloads still run; only extensions cannot reach the app
        return new AppEngine(queue, false, null, lock, "Browser extensions cannot hand downloads to Braid: " + e.getMessage());
      }
    } catch (LocalFileException | ClientException | RuntimeException e) {
      if (queue != null) {
        queue.close();
      }
      lock.close();
      throw e;
    }
  }

  /**
   * The window's queue over the app's own engine; {@code built} receives the engine (for the RPC
   * the app serves over it). Its hooks' failures are told to the window.
   */
  static ClientQueue own(String stateDatabase, GuiSettings settings, SettingsStore store, AppRules rules,
      UnaryOperator<BraidBuilder> tune, SnapshotCoalescer out, AtomicReference<Braid> built) throws LocalFileException, ClientException {
    // a hook can end only after a download ran, by then the queue exists
    AtomicReference<ClientQueue> window = new AtomicReference<>();
    Braid braid = OwnEngine.build(stateDatabase, settings, rules, tune, f -> {
      ClientQueue q = window.get();
      if (q != null) {
        q.tell("A hook did not succeed", f.toString());
      }
    });
    built.set(braid);
    LocalClient client = new LocalClient(braid, rules.rules());
    try {
      window.set(ClientQueue.open(client, settings, store, out));
    } catch (ClientException | RuntimeException e) {
      client.close();
      throw e;
    }
    return window.get();
  }

  AppQueue queue() {
    return queue;
  }

  /** Whether the window is a client of a running daemon. */
  boolean attached() {
    return attached;
  }

  /** The port the app's RPC listens on, or empty when it serves none. */
  Optional<Integer> rpcPort() {
    return server == null ? Optional.empty() : Optional.of(server.port());
  }

  /** Why the app serves no RPC although its setting asks for it (the port is taken, another engine holds the lock), or empty. */
  Optional<String> notice() {
    return Optional.ofNullable(notice);
  }

  /** Stops the RPC first (no call lands in a closing engine), then the queue and its client, then releases the lock. */
  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
    queue.close();
    if (lock != null) {
      try {
        lock.close();
      } catch (IOException e) {
        // the process ends soon after; the system releases the lock then
      }
    }
  }
}
