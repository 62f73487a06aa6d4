package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.Download;
import dev.braid.core.InvalidRequestException;
import java.nio.file.Path;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** The arguments the queue commands share: the state database, and the id of a download in it. */
final class QueueArguments {
  private QueueArguments() {}

  /** --state-db, also an option of the commands that download: a SQLite file, or a server database's URL. */
  static OptionSpec stateDb() {
    return CommandModel.option(String.class, "FILE|URL",
        "state database: a file (default: $XDG_DATA_HOME/braid/state.db, else ~/.local/share/braid/state.db), or"
            + " postgresql://HOST:PORT/DB?user=NAME for a queue shared by a fleet (password: in the URL, PGPASSWORD or ~/.pgpass)",
        "--state-db").build();
  }

  /** The state location {@code --state-db} names (its value as given), else the default database file. */
  static String stateLocation(OptionSpec stateDb) {
    String v = stateDb.getValue();
    return v != null ? v : Braid.defaultStateDatabase().toString();
  }

  /** Points {@code b} at the location {@code --state-db} names, if it names one. */
  static void applyStateDb(OptionSpec stateDb, BraidBuilder b) throws InvalidRequestException {
    String v = stateDb.getValue();
    if (v == null) {
      return;
    }
    try {
      b.stateLocation(Braid.isServerLocation(v) ? v : Path.of(v).toString());
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("--state-db: " + e.getMessage(), e);
    }
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
