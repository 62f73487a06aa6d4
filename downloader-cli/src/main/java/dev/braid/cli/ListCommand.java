package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadView;
import dev.braid.core.Progress;
import dev.braid.core.QueueOrder;
import dev.braid.store.DownloadState;
import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** {@code braid list}: every download in the queue, with its state and progress. */
final class ListCommand extends StoreCommand {
  /** Read and printed a page at a time: a queue with a long history is never held whole. */
  private static final int PAGE = 1000;
  private static final Set<DownloadState> ALL = EnumSet.allOf(DownloadState.class);
  private final OptionSpec json = CommandModel.flag("one JSON object per download instead of a table", "--json").build();
  /**
   * Standard output flushed a page at a time: {@code System.out} flushes every formatted piece, and
   * 100,000 entries were 2.7 million write calls (4 s of system time).
   */
  private final PrintStream out;

  ListCommand(Caller caller) {
    super(caller);
    this.out = new PrintStream(new BufferedOutputStream(caller.out(), 1 << 16), false, Charset.defaultCharset());
  }

  @Override
  CommandSpec spec() {
    return model("list", "List the downloads in the queue.").addOption(json);
  }

  @Override
  int run(BraidClient client) throws ClientException {
    boolean json = CommandModel.isSet(this.json);
    if (!json) {
      out.printf(Locale.ROOT, "%5s  %-9s  %6s  %10s  %s%n", "ID", "STATE", "DONE", "SIZE", "NAME");
    }
    for (long offset = 0;; offset += PAGE) {
      List<DownloadView> page = client.page(ALL, QueueOrder.OLDEST_FIRST, offset, PAGE);
      print(page, json);
      out.flush();
      if (page.size() < PAGE) {
        return ExitCode.OK;
      }
    }
  }

  private void print(List<DownloadView> page, boolean json) {
    for (DownloadView d : page) {
      Progress p = d.progress();
      if (json) {
        out.println(StatusCommand.json(d));
      } else {
        out.printf(Locale.ROOT, "%5d  %-9s  %6s  %10s  %s%s%n", d.id(), OutageText.state(d),
            percent(p), p.length() >= 0 ? Units.bytes(p.length()) : "?", d.name(), OutageText.of(d).map(w -> "  " + w).orElse(""));
      }
    }
  }

  static String percent(Progress p) {
    double f = p.fraction();
    return f < 0 ? "?" : String.format(Locale.ROOT, "%.1f%%", 100 * f);
  }
}
