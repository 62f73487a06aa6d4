package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.DownloadException;
import dev.braid.core.StateStoreException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** A queue command that reads or changes the state database and downloads nothing: one error line and its exit code. */
abstract class StoreCommand implements Callable<Integer> {
  private final OptionSpec stateDb = QueueArguments.stateDb();

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
    Braid.Builder b = Braid.builder();
    Path db = stateDb.getValue();
    if (db != null) {
      b.stateDatabase(db);
    }
    try (Braid braid = b.build()) {
      return run(braid);
    } catch (DownloadException e) {
      System.err.println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (StateStoreException e) {
      // the store went busy or bad after it opened: the same code as failing to open it
      System.err.println("braid: " + e.getMessage());
      return ExitCode.LOCAL_IO;
    }
  }

  abstract int run(Braid braid) throws DownloadException;
}
