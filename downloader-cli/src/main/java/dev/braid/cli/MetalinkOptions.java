package dev.braid.cli;

import static dev.braid.cli.CommandModel.option;

import dev.braid.core.InvalidRequestException;
import dev.braid.core.Metalink;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options of {@code braid get} for Metalink files, named as aria2 names them: which URLs come
 * first ({@code --metalink-location}, {@code --metalink-preferred-protocol}) and which files to
 * take ({@code --select-file}).
 */
final class MetalinkOptions {
  private final OptionSpec location = option(String.class, "LOC[,LOC...]",
      "Metalink: URLs in these locations (country codes, e.g. de,fr) first", "--metalink-location").build();

  private final OptionSpec protocol = option(String.class, "http|https|none",
      "Metalink: URLs of this protocol first (default: none)", "--metalink-preferred-protocol").build();

  private final OptionSpec selectFile = option(String.class, "INDEXES",
      "Metalink: download only these files, counted from 1 in the document (e.g. 1-3,5)", "--select-file").build();

  void addTo(CommandSpec spec) {
    for (OptionSpec o : List.of(location, protocol, selectFile)) {
      spec.addOption(o);
    }
  }

  /** The order of a file's URLs the options ask for. */
  Metalink.Order order() throws InvalidRequestException {
    String loc = location.getValue();
    String proto = protocol.getValue();
    try {
      return new Metalink.Order(loc == null ? List.of() : Arrays.asList(loc.split(",")), proto == null ? "" : proto);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("--metalink-preferred-protocol: " + e.getMessage(), e);
    }
  }

  /** The files of {@code m} that {@code --select-file} names (every file without it). */
  List<Metalink.File> selected(Metalink m) throws InvalidRequestException {
    try {
      return m.files(selectFile.getValue());
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("--select-file: " + e.getMessage(), e);
    }
  }
}
