package dev.braid.cli;

import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.EngineLock;
import dev.braid.client.remote.SecretFile;
import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.DownloadException;
import dev.braid.rpc.RpcServer;
import dev.braid.rpc.RpcSettings;
import dev.braid.testserver.Content;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import picocli.CommandLine;

/**
 * {@code braid demo --through-rpc}: the demo's file twice more, as {@code braid get} fetches it
 * without a daemon (in this process, on a scratch store of its own) and when a daemon runs: an
 * engine of its own on a scratch store runs its queue behind aria2's
 * JSON-RPC on a free loopback port and a local socket, with its {@link CommandRelay}, and {@code
 * braid get}'s command line is relayed there ({@link RelayClient}) and run by the relay on that
 * engine through the client port ({@link GetCommand}, then {@link ClientGet}), as with a daemon. In the class
 * archive's training run this puts get's paths (in process; the relay's client; the relayed
 * command on the port) and the daemon's servers in the archive beside the engine.
 */
final class DemoThroughRpc {
  private DemoThroughRpc() {}

  /**
   * Downloads {@code url} into {@code work} with get's command, in this process and then through
   * the RPC, and checks each copy against {@code expected}; the exit code.
   *
   * @param caCert the certificate an https {@code url}'s server presents (get's --ca-cert), or null
   */
  static int fetch(BraidBuilder engine, String url, Path caCert, Path work, String expected, PrintStream out)
      throws DownloadException, IOException, InterruptedException {
    Path folder = Files.createDirectories(work.resolve("rpc"));
    out.println("  as braid get does without a daemon:");
    List<String> local = new ArrayList<>(List.of("--state-db", work.resolve("get.db").toString(), "-o",
        folder.resolve("get.bin").toString(), url));
    if (caCert != null) {
      local.addAll(List.of("--ca-cert", caCert.toString()));
    }
    int code = new CommandLine(new GetCommand(Caller.thisProcess()).spec(), CommandModel.factory())
        .execute(local.toArray(String[]::new));
    if (code != ExitCode.OK) {
      return code;
    }
    if (!expected.equals(Content.sha256Hex(folder.resolve("get.bin")))) {
      throw new IllegalStateException("the copy braid get fetched differs from the served file");
    }
    Path db = work.resolve("rpc.db");
    // the scratch store's engine lock and secret file, as `braid daemon` takes and makes them: a
    // daemon's client reads both (DaemonLink), so their classes go into the archive too
    try (EngineLock lock = EngineLock.acquire(db)) {
      String secret = SecretFile.readOrCreate(SecretFile.fileOf(db));
      return fetch(engine.stateDatabase(db).downloadDirectory(folder).runQueue(true), db, secret, url, folder, expected, out);
    } catch (EngineLock.EngineRunningException e) {
      throw new IOException("the demo's scratch store is another engine's: " + e.getMessage(), e);
    }
  }

  private static int fetch(BraidBuilder engine, Path db, String secret, String url, Path folder, String expected,
      PrintStream out) throws DownloadException, IOException, InterruptedException {
    try (Braid braid = engine.build();
        RpcServer server = RpcServer.start(braid, RpcSettings.builder(folder, secret).port(0)
            .localSocket(DaemonLink.socketFileOf(db)).build(), () -> { })) {
      out.println("  through the RPC on port " + server.port() + ":");
      // named outright: this JVM holds the engine's lock, and a client finds only another process's;
      // with the folder the server may write to, as a daemon announces it, so the client checks it
      DaemonLink.Endpoint daemon = new DaemonLink.Endpoint(server.port(), secret, server.localSocket().orElse(null),
          List.of(folder));
      // the command line a user types, relayed as a client with a daemon relays it
      Path socket = DaemonLink.relaySocketOf(db);
      OptionalInt code;
      try (CommandRelay relay = CommandRelay.start(socket, CommandRelay.Daemon.of(daemon, new dev.braid.client.LocalClient(braid, dev.braid.core.rules.Rules.NONE)))) {
        code = RelayClient.run(new String[] {"get", "--state-db", db.toString(), "-o", folder.resolve("rpc.bin").toString(), url},
            db, socket);
      }
      if (code.isEmpty()) {
        throw new IllegalStateException("the relay handed braid get back");
      }
      if (code.getAsInt() != ExitCode.OK) {
        return code.getAsInt();
      }
      if (!expected.equals(Content.sha256Hex(folder.resolve("rpc.bin")))) {
        throw new IllegalStateException("the copy fetched through the RPC differs from the served file");
      }
      return ExitCode.OK;
    }
  }
}
