package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code braid remove ID}: take a download out of the queue, stopping it first wherever it runs. */
@Command(name = "remove", mixinStandardHelpOptions = true, description = "Remove a download from the queue.")
final class RemoveCommand extends StoreCommand {
  @Parameters(paramLabel = "ID", description = "the id braid list shows")
  long id;

  @Option(names = "--delete-file", description = "delete its file too, partial or complete (kept by default)")
  boolean deleteFile;

  @Override
  int run(Braid braid) throws DownloadException {
    Download d = StoreOption.find(braid, id);
    d.remove(deleteFile);
    System.err.println("braid: removed #" + id + " " + d.name() + (deleteFile ? " and its file" : ""));
    return ExitCode.OK;
  }
}
