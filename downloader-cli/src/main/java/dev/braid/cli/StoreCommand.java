package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.DownloadException;
import dev.braid.core.StateStoreException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/** A queue command that reads or changes the state database and downloads nothing: one error line and its exit code. */
abstract class StoreCommand implements Callable<Integer> {
  @Mixin
  StoreOption store = new StoreOption();

  @Override
  public final Integer call() {
    try (Braid braid = store.open()) {
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
