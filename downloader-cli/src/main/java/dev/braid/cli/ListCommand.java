package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.Progress;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** {@code braid list}: every download in the queue, with its state and progress. */
final class ListCommand extends StoreCommand {
  private final OptionSpec json = CommandModel.flag("one JSON object per download instead of a table", "--json").build();

  @Override
  CommandSpec spec() {
    return model("list", "List the downloads in the queue.").addOption(json);
  }

  @Override
  int run(Braid braid) throws DownloadException {
    List<Download> all = braid.downloads();
    boolean json = CommandModel.isSet(this.json);
    if (!json) {
      System.out.printf(Locale.ROOT, "%5s  %-9s  %6s  %10s  %s%n", "ID", "STATE", "DONE", "SIZE", "NAME");
    }
    for (Download d : all) {
      Progress p = d.progress();
      if (json) {
        System.out.println(StatusCommand.json(d));
      } else {
        System.out.printf(Locale.ROOT, "%5d  %-9s  %6s  %10s  %s%n", d.id(), d.state().name().toLowerCase(Locale.ROOT),
            percent(p), p.length() >= 0 ? Units.bytes(p.length()) : "?", d.name());
      }
    }
    return ExitCode.OK;
  }

  @Override
  int run(RpcClient rpc) throws java.io.IOException, RpcClient.RpcError, InterruptedException {
    boolean json = CommandModel.isSet(this.json);
    if (!json) {
      System.out.printf(Locale.ROOT, "%5s  %-9s  %6s  %10s  %s%n", "ID", "STATE", "DONE", "SIZE", "NAME");
    }
    for (com.fasterxml.jackson.databind.JsonNode e : rpc.call("braid.tellEntries")) {
      if (json) {
        System.out.println(StatusCommand.json(e));
      } else {
        Progress p = RemoteGet.progress(e);
        System.out.printf(Locale.ROOT, "%5d  %-9s  %6s  %10s  %s%n", e.path("id").asLong(), e.path("state").asText(),
            percent(p), p.length() >= 0 ? Units.bytes(p.length()) : "?", e.path("name").asText());
      }
    }
    return ExitCode.OK;
  }

  static String percent(Progress p) {
    double f = p.fraction();
    return f < 0 ? "?" : String.format(Locale.ROOT, "%.1f%%", 100 * f);
  }
}
