package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.InvalidRequestException;
import java.nio.file.Path;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** The arguments the queue commands share: the state database, and the id of a download in it. */
final class QueueArguments {
  private QueueArguments() {}

  /** --state-db, also an option of the commands that download. */
  static OptionSpec stateDb() {
    return CommandModel.option(Path.class, "FILE",
        "state database (default: $XDG_DATA_HOME/braid/state.db, else ~/.local/share/braid/state.db)", "--state-db").build();
  }

  /** The id of a download, as {@code braid list} shows it. */
  static PositionalParamSpec id() {
    return PositionalParamSpec.builder().paramLabel("ID").type(long.class).arity("1").required(true).description("the id braid list shows")
        .build();
  }

  static Download find(Braid braid, long id) throws InvalidRequestException {
    return braid.download(id).orElseThrow(() -> new InvalidRequestException("no download #" + id + " in the queue (see braid list)"));
  }
}
