package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code braid remove ID}: take a download out of the queue, stopping it first wherever it runs. */
@Command(name = "remove", mixinStandardHelpOptions = true, description = "Remove a download from the queue.")
final class RemoveCommand implements Callable<Integer> {
  @Parameters(paramLabel = "ID", description = "the id braid list shows")
  long id;

  @Option(names = "--delete-file", description = "delete its file too, partial or complete (kept by default)")
  boolean deleteFile;

  @Mixin
  StoreOption store = new StoreOption();

  @Override
  public Integer call() {
    try (Braid braid = store.open()) {
      Download d = StoreOption.find(braid, id);
      d.remove(deleteFile);
      System.err.println("braid: removed #" + id + " " + d.name() + (deleteFile ? " and its file" : ""));
      return ExitCode.OK;
    } catch (DownloadException e) {
      System.err.println("braid: " + e.getMessage());
      return ExitCode.of(e);
    }
  }
}
