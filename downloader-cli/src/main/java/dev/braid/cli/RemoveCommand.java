package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.Gid;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** {@code braid remove ID}: take a download out of the queue, stopping it first wherever it runs. */
final class RemoveCommand extends StoreCommand {
  private final PositionalParamSpec id = QueueArguments.id();

  private final OptionSpec deleteFile = CommandModel.flag("delete its file too, partial or complete (kept by default)",
      "--delete-file").build();

  RemoveCommand(Caller caller) {
    super(caller);
  }

  @Override
  CommandSpec spec() {
    return model("remove", "Remove a download from the queue.").addPositional(id).addOption(deleteFile);
  }

  @Override
  int run(Braid braid) throws DownloadException {
    long id = this.id.getValue();
    boolean deleteFile = CommandModel.isSet(this.deleteFile);
    Download d = QueueArguments.find(braid, id);
    d.remove(deleteFile);
    caller.err().println("braid: removed #" + id + " " + d.name() + (deleteFile ? " and its file" : ""));
    return ExitCode.OK;
  }

  @Override
  int run(RpcClient rpc) throws java.io.IOException, RpcClient.RpcError, InterruptedException {
    long id = this.id.<Long>getValue();
    boolean deleteFile = CommandModel.isSet(this.deleteFile);
    java.util.Optional<RpcValue> e = entry(rpc, id, caller.err());
    if (e.isEmpty()) {
      return ExitCode.USAGE;
    }
    if (deleteFile) {
      rpc.call("braid.remove", Gid.of(id), "true");
    } else {
      // aria2's own remove: its clients then see the download in tellStopped as removed
      rpc.call("aria2.remove", Gid.of(id));
    }
    caller.err().println("braid: removed #" + id + " " + e.get().path("name").asText() + (deleteFile ? " and its file" : ""));
    return ExitCode.OK;
  }
}
