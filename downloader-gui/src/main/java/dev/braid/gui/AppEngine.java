package dev.braid.gui;

import dev.braid.client.remote.EngineLock;
import dev.braid.client.remote.SecretFile;
import dev.braid.client.remote.StateAnchor;
import dev.braid.core.BraidBuilder;
import dev.braid.core.LocalFileException;
import dev.braid.rpc.RpcServer;
import dev.braid.rpc.RpcSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Which engine the app drives. When no {@code braid daemon} holds the state database's engine
 * lock, the app takes it (so a daemon started later refuses), runs the queue in-process and,
 * when the setting says so, serves aria2's JSON-RPC on loopback with the daemon's secret file,
 * for browser extensions. When a daemon holds it, the app attaches to that daemon on the RPC
 * port of its settings; when that engine does not answer there, the app runs its own beside it
 * (without lock or RPC), as before. {@link #close()} lets go in the reverse order.
 */
final class AppEngine implements AutoCloseable {
  private final AppQueue queue;
  private final RpcServer server;
  private final EngineLock lock;
  private final String notice;

  private AppEngine(AppQueue queue, RpcServer server, EngineLock lock, String notice) {
    this.queue = queue;
    this.server = server;
    this.lock = lock;
    this.notice = notice;
  }

  /**
   * Opens the engine of {@code stateLocation} (a file or a server database's URL): the app's own,
   * or the running daemon's. Its lock and secret files are named after {@link StateAnchor}. Blocking.
   *
   * @param tune adjusts the in-process engine's builder (tests shorten timeouts)
   * @param shutdownAsked runs when an RPC client calls {@code aria2.shutdown}
   */
  static AppEngine open(String stateDatabase, SnapshotCoalescer out, UnaryOperator<BraidBuilder> tune, Runnable shutdownAsked)
      throws LocalFileException, IOException {
    return open(stateDatabase, out, tune, shutdownAsked, AppRules.none());
  }

  /**
   * As {@link #open(String, SnapshotCoalescer, UnaryOperator, Runnable)}, with the rules file: the
   * in-process engine gets its proxies and per-host caps (fixed until the next start), each added
   * download its host's settings, and the app's RPC its rules and categories. An attached window
   * leaves the rules to the daemon, which reads its own.
   */
  static AppEngine open(String stateDatabase, SnapshotCoalescer out, UnaryOperator<BraidBuilder> tune, Runnable shutdownAsked,
      AppRules rules) throws LocalFileException, IOException {
    UnaryOperator<BraidBuilder> ruled = b -> tune.apply(b).hostRules(rules.rules());
    Path anchor = StateAnchor.of(stateDatabase);
    Path secretFile = SecretFile.fileOf(anchor);
    EngineLock lock;
    try {
      lock = EngineLock.acquire(anchor);
    } catch (EngineLock.EngineRunningException running) {
      GuiSettings settings = BraidQueue.readSettings(stateDatabase);
      DaemonClient client = new DaemonClient(settings.rpcPort(), SecretFile.readOrCreate(secretFile));
      String unreachable = probe(client);
      if (unreachable == null) {
        return new AppEngine(new DaemonQueue(client, stateDatabase, settings, out), null, null, null);
      }
      // an engine without a reachable RPC (another window with the setting off, a daemon on another
      // port or secret): run in-process beside it as before the lock, the store's locks keep them apart
      BraidQueue beside = BraidQueue.open(stateDatabase, out, ruled);
      beside.rules(rules::rules);
      return new AppEngine(beside, null, null,
          "Another Braid runs this queue (" + running.getMessage() + ") and does not answer at " + client.uri() + ": "
              + unreachable + ". This window runs its own engine beside it.");
    }
    BraidQueue queue = null;
    try {
      queue = BraidQueue.open(stateDatabase, out, ruled);
      queue.rules(rules::rules);
      GuiSettings s = queue.settings();
      if (!s.rpc()) {
        return new AppEngine(queue, null, lock, null);
      }
      try {
        Files.createDirectories(s.folder());
        RpcSettings rpc = RpcSettings.builder(s.folder(), SecretFile.readOrCreate(secretFile)).port(s.rpcPort())
            .rules(rules.rules()).build();
        return new AppEngine(queue, RpcServer.start(queue.braid(), rpc, shutdownAsked), lock, null);
      } catch (IOException e) {
        // the downloads still run; only extensions cannot reach the app
        return new AppEngine(queue, null, lock, "Browser extensions cannot hand downloads to Braid: " + e.getMessage());
      }
    } catch (LocalFileException | RuntimeException e) {
      if (queue != null) {
        queue.close();
      }
      lock.close();
      throw e;
    }
  }

  /** Null when the engine behind the lock answers at the settings' port with the secret, else why not. */
  private static String probe(DaemonClient client) {
    try {
      client.call("aria2.getVersion");
      return null;
    } catch (IOException e) {
      return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  AppQueue queue() {
    return queue;
  }

  /** Whether the window is a client of a running daemon. */
  boolean attached() {
    return queue instanceof DaemonQueue;
  }

  /** The port the app's RPC listens on, or empty when it serves none. */
  Optional<Integer> rpcPort() {
    return server == null ? Optional.empty() : Optional.of(server.port());
  }

  /** Why the app serves no RPC although its setting asks for it (the port is taken, another engine holds the lock), or empty. */
  Optional<String> notice() {
    return Optional.ofNullable(notice);
  }

  /** Stops the RPC first (no call lands in a closing engine), then the queue, then releases the lock. */
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
