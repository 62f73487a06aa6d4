package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.LocalFileException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The state database of the queue commands ({@code list}, {@code status}, {@code pause}, {@code remove}). */
final class StoreOption {
  @Option(names = "--state-db", paramLabel = "FILE", description = "state database (default: $XDG_DATA_HOME/braid/state.db, else ~/.local/share/braid/state.db)")
  Path stateDb;

  Braid open() throws LocalFileException {
    Braid.Builder b = Braid.builder();
    if (stateDb != null) {
      b.stateDatabase(stateDb);
    }
    return b.build();
  }

  static Download find(Braid braid, long id) throws InvalidRequestException {
    return braid.download(id).orElseThrow(() -> new InvalidRequestException("no download #" + id + " in the queue (see braid list)"));
  }
}
