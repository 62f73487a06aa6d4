package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.Gid;
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
  int run(Braid braid) throws DownloadException {
    long id = this.id.getValue();
    Download d = QueueArguments.find(braid, id);
    if (d.state() == DownloadState.COMPLETED) {
      caller.err().println("braid: download #" + id + " is already complete");
      return ExitCode.OK;
    }
    d.pause();
    caller.err().println("braid: paused #" + id + " " + d.name() + " (braid resume " + id + " continues it)");
    return ExitCode.OK;
  }

  @Override
  int run(RpcClient rpc) throws java.io.IOException, RpcClient.RpcError, InterruptedException {
    long id = this.id.<Long>getValue();
    java.util.Optional<RpcValue> e = entry(rpc, id, caller.err());
    if (e.isEmpty()) {
      return ExitCode.USAGE;
    }
    String state = e.get().path("state").asText();
    if (state.equals("completed")) {
      caller.err().println("braid: download #" + id + " is already complete");
      return ExitCode.OK;
    }
    if (state.equals("active") || state.equals("queued")) {
      rpc.call("aria2.forcePause", Gid.of(id));
    }
    caller.err().println("braid: paused #" + id + " " + e.get().path("name").asText() + " (braid resume " + id + " continues it)");
    return ExitCode.OK;
  }
}
