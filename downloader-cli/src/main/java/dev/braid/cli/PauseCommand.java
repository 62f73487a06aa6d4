package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadView;
import dev.braid.store.DownloadState;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** {@code braid pause ID}: stop a queued or running download, also one another braid process is running. */
final class PauseCommand extends StoreCommand {
  private final PositionalParamSpec id = QueueArguments.id();

  PauseCommand(Caller caller) {
    super(caller);
  }

  @Override
  CommandSpec spec() {
    return model("pause", "Pause a download; a braid process running it stops it within a second.").addPositional(id);
  }

  @Override
  int run(BraidClient client) throws ClientException {
    long id = this.id.getValue();
    DownloadView d = find(client, id);
    if (d.state() == DownloadState.COMPLETED) {
      caller.err().println("braid: download #" + id + " is already complete");
      return ExitCode.OK;
    }
    client.pause(id);
    caller.err().println("braid: paused #" + id + " " + d.name() + " (braid resume " + id + " continues it)");
    return ExitCode.OK;
  }
}
