package dev.braid.cli;

import static dev.braid.cli.CommandModel.flag;
import static dev.braid.cli.CommandModel.isSet;
import static dev.braid.cli.CommandModel.option;
import static dev.braid.cli.CommandModel.repeatable;
import static dev.braid.cli.CommandModel.strings;

import dev.braid.client.BraidClient;
import dev.braid.client.LocalClient;
import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.EngineLock;
import dev.braid.client.remote.SecretFile;
import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.DownloadException;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageRetry;
import dev.braid.core.rules.Category;
import dev.braid.core.rules.Rules;
import dev.braid.rpc.KeyFile;
import dev.braid.rpc.RpcServer;
import dev.braid.rpc.RpcSettings;
import dev.braid.rpc.ServerCertificate;
import dev.braid.rpc.WritableFolders;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code braid daemon}: runs the whole queue of one state database in the foreground and serves
 * aria2's JSON-RPC for it, until SIGTERM, SIGINT or {@code aria2.shutdown}; then it pauses what
 * runs, records the progress and exits 0.
 *
 * <p>Threads: the command's own (main) thread waits for the stop and then closes the server and
 * the engine. A shutdown hook asks for the stop, waits (4 s at most) until the main thread has
 * closed everything, and halts with 0: a JVM ended by a signal would otherwise exit 143. Any
 * other thread that dies of an uncaught throwable ends the process ({@link DaemonFailure}).
 */
final class DaemonCommand implements Callable<Integer> {
  /**
   * How long SIGTERM waits for the server and the engine to close before the process ends anyway:
   * a supervisor must see it gone within 5 s. Progress is recorded every 0.5 s, so little is lost.
   */
  private static final long CLOSE_MILLIS = 4_000;

  private final OptionSpec dir = option(Path.class, "DIR",
      "download into DIR unless a call names another allowed folder (default: .)", "-d", "--dir").defaultValue(".").build();

  private final OptionSpec jobs = option(int.class, "N", "downloads at once (default: ${DEFAULT-VALUE}, as aria2)", "-j",
      "--max-concurrent-downloads").defaultValue("5").build();

  private final OptionSpec port = option(int.class, "N", "the RPC port (default: ${DEFAULT-VALUE}; 0: any free one)",
      "--rpc-listen-port").defaultValue(String.valueOf(RpcSettings.DEFAULT_PORT)).build();

  private final OptionSpec secret = option(String.class, "TOKEN",
      "the RPC secret clients send as token:TOKEN (default: made once and kept in STATE_DB.rpc-secret, mode 0600)",
      "--rpc-secret").build();

  private final OptionSpec listenAll = flag("listen on every interface, not only 127.0.0.1 and ::1; needs TLS"
      + " (--rpc-certificate and --rpc-private-key) or --rpc-insecure", "--rpc-listen-all").build();

  private final OptionSpec origins = repeatable("ORIGIN",
      "grant CORS to this web origin, e.g. https://ariang.example (repeatable; no other origin gets it)",
      "--rpc-allow-origin").build();

  private final OptionSpec allowDirs = repeatable("DIR", "a call may also name this folder or one under it as dir (repeatable)",
      "--allow-dir").build();

  private final TlsOptions tlsOptions = new TlsOptions();

  private final EngineOptions engine = new EngineOptions();

  private final ConnectionOptions net = new ConnectionOptions();

  private final HookOptions hooks = new HookOptions();
  private final OutageOptions outage = new OutageOptions();

  private final ScheduleOptions schedule = new ScheduleOptions();
  private final RulesOptions rulesFile = new RulesOptions();

  CommandSpec spec() {
    CommandSpec spec = CommandModel.command("daemon", this,
        "Run the queue of one state database and serve aria2's JSON-RPC on /jsonrpc (HTTP and WebSocket), so that"
            + " aria2 clients (AriaNg, browser extensions, aria2p, scripts) drive Braid.",
        "Stops on SIGTERM or SIGINT, recording progress; the secret is in STATE_DB.rpc-secret unless --rpc-secret is given"
            + " (for a postgresql:// database, under the data folder's servers/: each worker of a fleet keeps its own)."
            + " A thread of it that dies, or memory that runs out, ends it with exit code " + ExitCode.ENGINE_FAILED
            + " rather than limp on: run it under a supervisor that restarts it. --rpc-listen-all without TLS or"
            + " --rpc-insecure, or a certificate or key that cannot be used, exits " + ExitCode.USAGE + " before anything"
            + " starts. Besides the secret, calls may carry API keys (braid keys).");
    for (OptionSpec o : List.of(dir, jobs, port, secret, listenAll)) {
      spec.addOption(o);
    }
    tlsOptions.addTo(spec);
    spec.addOption(origins).addOption(allowDirs);
    engine.addTo(spec);
    outage.addToDaemon(spec);
    net.addEngineOptionsTo(spec);
    hooks.addTo(spec);
    schedule.addTo(spec);
    rulesFile.addTo(spec);
    return spec;
  }

  @Override
  public Integer call() {
    PrintStream err = System.err;
    Path db = engine.stateAnchor();
    try {
      net.validate();
      if (jobs.<Integer>getValue() < 1) {
        throw new InvalidRequestException("-j must be at least 1");
      }
      ServerCertificate tls = tlsOptions.read(isSet(listenAll));
      try (EngineLock lock = EngineLock.acquire(db)) {
        return serve(db, tls, err);
      }
    } catch (EngineLock.EngineRunningException e) {
      err.println("braid: " + e.getMessage());
      return ExitCode.ENGINE_RUNNING;
    } catch (DownloadException e) {
      err.println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (IOException e) {
      err.println("braid: " + e.getMessage());
      return ExitCode.LOCAL_IO;
    } catch (IllegalArgumentException e) {
      err.println("braid: " + e.getMessage());
      return ExitCode.USAGE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCode.INTERRUPTED;
    }
  }

  private int serve(Path db, ServerCertificate tls, PrintStream err)
      throws DownloadException, IOException, InterruptedException {
    Path folder = dir.<Path>getValue().toAbsolutePath().normalize();
    Path secretFile = SecretFile.fileOf(db);
    String token = secret.getValue() != null ? secret.getValue() : SecretFile.readOrCreate(secretFile);
    if (token.length() < SecretFile.STRONG_LENGTH) {
      err.println("braid: WARNING: the RPC secret " + (secret.getValue() != null ? "given by --rpc-secret" : "in " + secretFile)
          + " has " + token.length() + " characters: one under " + SecretFile.STRONG_LENGTH + " can be guessed; leave"
          + " --rpc-secret out to use a random one kept in the secret file");
    }
    KeyFile keys = new KeyFile(KeyFile.fileOf(db), Clock.systemUTC());
    // a keys file others may change, or a line that is not a key, stops the start as the secret file's would
    keys.list();
    RpcSettings.Builder settings = RpcSettings.builder(folder, token).port(port.<Integer>getValue())
        .listenAll(isSet(listenAll)).localSocket(DaemonLink.socketFileOf(db)).keys(keys.path());
    if (tls != null) {
      settings.certificate(tls);
    }
    strings(origins).forEach(settings::allowOrigin);
    strings(allowDirs).forEach(d -> settings.allowFolder(Path.of(d)));
    Rules rules = rulesFile.load();
    settings.rules(rules);
    warnOutsideFolders(rules, folder, err);
    BraidBuilder builder = engine.builder().downloadDirectory(folder).runQueue(true)
        .maxActiveDownloads(jobs.<Integer>getValue()).outageRetry(outage.policy(OutageRetry.DEFAULT));
    net.applyTo(builder, System.getenv(), err);
    hooks.applyTo(builder, f -> err.println("braid: " + f));
    schedule.applyTo(builder);
    builder.hostRules(net.proxyGiven() ? rules.withoutProxies() : rules);
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      stop.countDown();
      try {
        if (!closed.await(CLOSE_MILLIS, TimeUnit.MILLISECONDS)) {
          err.println("braid: stopping took over " + CLOSE_MILLIS / 1000 + " s; exiting now (the queue resumes from its"
              + " recorded progress)");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      err.flush();
      Runtime.getRuntime().halt(ExitCode.OK);
    }, "braid-daemon-stop");
    CommandRelay relay = null;
    DaemonFailure.install(err);
    try (Braid braid = builder.build()) {
      EngineOptions.announceMetrics(braid, err);
      if (!braid.runWindows().isEmpty()) {
        err.println("braid: the queue runs in " + dev.braid.core.RunWindow.toText(braid.runWindows()) + " (local time)");
      }
      try (RpcServer server = RpcServer.start(braid, settings.build(), stop::countDown)) {
        Runtime.getRuntime().addShutdownHook(hook);
        tlsOptions.describe(tls, isSet(listenAll), server.port(), err);
        if (server.localSocket().isEmpty()) {
          err.println("braid: no local socket at " + DaemonLink.socketFileOf(db) + " (too long a path?): local"
              + " commands use the port");
        }
        String pin = tls == null ? null : tls.sha256();
        relay = relay(db, new DaemonLink.Endpoint(server.port(), token, server.localSocket().orElse(null), roots(folder),
            pin), new LocalClient(braid, rules), err);
        // before the line that says it serves: a client started on that line finds the port
        DaemonLink.announce(db, server.port(), roots(folder), pin);
        String local = server.scheme() + "://127.0.0.1:" + server.port();
        err.println("braid: daemon serving aria2 JSON-RPC on " + local + "/jsonrpc"
            + (secret.getValue() == null ? " (secret in " + secretFile + ")" : ""));
        err.println("braid: web console on " + local + "/ (braid console opens it)" + (isSet(listenAll)
            ? "; from other machines: " + server.scheme() + "://" + TlsOptions.hostName() + ":" + server.port() + "/" : ""));
        try {
          stop.await();
        } finally {
          DaemonLink.withdraw(db);
        }
        err.println("braid: stopping; progress is recorded, the queue continues at the next start");
      } finally {
        // after the RPC: a relayed command hears its daemon go and says so to its client, as a command in
        // the client's own process would
        if (relay != null) {
          relay.close();
        }
      }
    } finally {
      closed.countDown();
    }
    return ExitCode.OK;
  }

  /**
   * The relay of local command lines ({@link CommandRelay}), whose commands work on {@code engine},
   * this daemon's own (the client is never closed: the engine is closed with the daemon); null when
   * its socket cannot be made.
   */
  private CommandRelay relay(Path db, DaemonLink.Endpoint self, BraidClient engine, PrintStream err) {
    Path socket = DaemonLink.relaySocketOf(db);
    try {
      return CommandRelay.start(socket, CommandRelay.Daemon.of(self, engine));
    } catch (IOException | RuntimeException e) {
      err.println("braid: no command relay at " + socket + " (" + e.getMessage() + "): local commands start slower");
      return null;
    }
  }

  /** A category whose folder this daemon may not write to: its addUri calls without dir will fail, and the user should know now. */
  private void warnOutsideFolders(Rules rules, Path folder, PrintStream err) {
    List<Path> roots = roots(folder);
    for (Category c : rules.categories()) {
      if (!insideFolders(roots, c.folder())) {
        err.println("braid: WARNING: the folder of category " + c.name() + " (" + c.folder() + ") is outside -d and"
            + " --allow-dir: calls it applies to fail unless they name a dir");
      }
    }
  }

  /**
   * Whether the RPC would let a call write into {@code dir}: the rule it applies, links resolved
   * (a category folder reached through a link into -d is inside). A folder that cannot be read
   * counts as outside: the call would fail there too.
   */
  private static boolean insideFolders(List<Path> roots, Path dir) {
    try {
      return WritableFolders.contain(roots, dir);
    } catch (IOException e) {
      return false;
    }
  }

  /** The folders this daemon's RPC may write to: {@code folder} (its -d) and every --allow-dir. */
  private List<Path> roots(Path folder) {
    List<Path> roots = new java.util.ArrayList<>(List.of(folder));
    strings(allowDirs).forEach(d -> roots.add(Path.of(d).toAbsolutePath().normalize()));
    return roots;
  }
}
