package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadView;
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
  int run(BraidClient client) throws ClientException {
    long id = this.id.getValue();
    boolean deleteFile = CommandModel.isSet(this.deleteFile);
    DownloadView d = find(client, id);
    client.remove(id, deleteFile);
    caller.err().println("braid: removed #" + id + " " + d.name() + (deleteFile ? " and its file" : ""));
    return ExitCode.OK;
  }
}
