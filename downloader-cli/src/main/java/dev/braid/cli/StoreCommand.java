package dev.braid.cli;

import dev.braid.client.remote.StateAnchor;
import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.DownloadException;
import dev.braid.core.Gid;
import dev.braid.core.StateStoreException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** A queue command that reads or changes the state database and downloads nothing: one error line and its exit code. */
abstract class StoreCommand implements Callable<Integer> {
  private final OptionSpec stateDb = QueueArguments.stateDb();
  /** Who the command runs for: its streams, its daemon. */
  final Caller caller;

  StoreCommand(Caller caller) {
    this.caller = caller;
  }

  /** The command's model: {@link #model} and the command's own arguments. */
  abstract CommandSpec spec();

  /** A model of this command with --state-db. */
  final CommandSpec model(String name, String description) {
    CommandSpec spec = CommandModel.command(name, this, description);
    spec.addOption(stateDb);
    return spec;
  }

  @Override
  public final Integer call() {
    java.util.Optional<DaemonLink.Endpoint> daemon = caller.daemon(StateAnchor.of(QueueArguments.stateLocation(stateDb)));
    if (daemon.isPresent()) {
      return remote(daemon.get());
    }
    caller.engineHere();
    BraidBuilder b = Braid.builder();
    try {
      QueueArguments.applyStateDb(stateDb, b);
    } catch (DownloadException e) {
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.of(e);
    }
    try (Braid braid = b.build()) {
      return run(braid);
    } catch (DownloadException e) {
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (StateStoreException e) {
      // the store went busy or bad after it opened: the same code as failing to open it
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.LOCAL_IO;
    }
  }

  abstract int run(Braid braid) throws DownloadException;

  /** With a daemon on the state database: the same command through its RPC. */
  abstract int run(RpcClient rpc) throws java.io.IOException, RpcClient.RpcError, InterruptedException;

  private int remote(DaemonLink.Endpoint daemon) {
    try (RpcClient rpc = RpcClient.connect(caller, daemon, n -> { })) {
      return run(rpc);
    } catch (RpcClient.RpcError e) {
      caller.err().println("braid: the daemon answered: " + e.getMessage());
      return "Unauthorized".equals(e.getMessage()) ? ExitCode.LOCAL_IO : ExitCode.USAGE;
    } catch (java.io.IOException e) {
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.LOCAL_IO;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCode.INTERRUPTED;
    }
  }

  /**
   * The daemon's entry of download {@code id} ({@code braid.tellEntry}); none prints the message
   * an in-process command prints and returns empty.
   */
  static java.util.Optional<RpcValue> entry(RpcClient rpc, long id, java.io.PrintStream err)
      throws java.io.IOException, RpcClient.RpcError, InterruptedException {
    try {
      return java.util.Optional.of(rpc.call("braid.tellEntry", Gid.of(id)));
    } catch (RpcClient.RpcError e) {
      if (e.getMessage().contains("is not found")) {
        err.println("braid: no download #" + id + " in the queue (see braid list)");
        return java.util.Optional.empty();
      }
      throw e;
    }
  }
}
