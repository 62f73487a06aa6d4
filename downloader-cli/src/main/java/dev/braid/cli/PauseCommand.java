package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code braid pause ID}: stop a queued or running download, also one another braid process is running. */
@Command(name = "pause", mixinStandardHelpOptions = true,
    description = "Pause a download; a braid process running it stops it within a second.")
final class PauseCommand extends StoreCommand {
  @Parameters(paramLabel = "ID", description = "the id braid list shows")
  long id;

  @Override
  int run(Braid braid) throws DownloadException {
    Download d = StoreOption.find(braid, id);
    if (d.state() == DownloadState.COMPLETED) {
      System.err.println("braid: download #" + id + " is already complete");
      return ExitCode.OK;
    }
    d.pause();
    System.err.println("braid: paused #" + id + " " + d.name() + " (braid resume " + id + " continues it)");
    return ExitCode.OK;
  }
}
