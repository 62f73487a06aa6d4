package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadView;
import dev.braid.client.remote.StateAnchor;
import dev.braid.core.DownloadException;
import dev.braid.core.StateStoreException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A queue command that reads or changes the state database and downloads nothing, written once
 * against the client port ({@link #run(BraidClient)}): {@link ClientChoice} picks the daemon of
 * the database or an engine of this process. One error line and its exit code.
 */
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
    try (BraidClient client = ClientChoice.open(caller, StateAnchor.of(QueueArguments.stateLocation(stateDb)), () -> {
      dev.braid.core.BraidBuilder b = dev.braid.core.Braid.builder();
      QueueArguments.applyStateDb(stateDb, b);
      return b;
    }, dev.braid.core.rules.Rules.NONE)) {
      return run(client);
    } catch (DownloadException e) {
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (ClientException e) {
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (StateStoreException e) {
      // the store went busy or bad after it opened: the same code as failing to open it
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.LOCAL_IO;
    }
  }

  /** The command, through whichever client {@link ClientChoice} picked; its exit code. */
  abstract int run(BraidClient client) throws ClientException;

  /** Download {@code id}, or a refusal with the message of an id {@code braid list} does not show. */
  static DownloadView find(BraidClient client, long id) throws ClientException {
    return client.download(id).orElseThrow(() -> new ClientException(ClientException.Reason.NOT_FOUND,
        "no download #" + id + " in the queue (see braid list)", null));
  }
}
