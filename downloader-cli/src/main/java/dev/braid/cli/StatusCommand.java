package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadView;
import dev.braid.core.OutageWait;
import dev.braid.core.Progress;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** {@code braid status ID}: one download in detail. */
final class StatusCommand extends StoreCommand {
  private final PositionalParamSpec id = QueueArguments.id();

  private final OptionSpec json = CommandModel.flag("a JSON object instead of text", "--json").build();

  StatusCommand(Caller caller) {
    super(caller);
  }

  @Override
  CommandSpec spec() {
    return model("status", "Show one download of the queue.").addPositional(id).addOption(json);
  }

  @Override
  int run(BraidClient client) throws ClientException {
    DownloadView d = find(client, id.getValue());
    if (CommandModel.isSet(json)) {
      caller.out().println(json(d));
      return ExitCode.OK;
    }
    Progress p = d.progress();
    caller.out().println("id:       " + d.id());
    caller.out().println("url:      " + d.url());
    caller.out().println("file:     " + d.fileIfChosen().map(Object::toString).orElse("(not chosen yet)"));
    caller.out().println("state:    " + OutageText.state(d));
    OutageText.of(d).ifPresent(w -> caller.out().println("retry:    " + w));
    caller.out().println("progress: " + ListCommand.percent(p) + " (" + Units.bytes(p.done())
        + (p.length() >= 0 ? " of " + Units.bytes(p.length()) : "") + ")");
    if (d.remote() != null) {
      if (d.remote().etag() != null) {
        caller.out().println("etag:     " + d.remote().etag());
      }
      if (d.remote().lastModified() != null) {
        caller.out().println("modified: " + d.remote().lastModified());
      }
    }
    if (d.error() != null) {
      caller.out().println("error:    " + d.error());
    }
    return ExitCode.OK;
  }

  /** The --json object of a download, for {@code status} and {@code list}. */
  static Json json(DownloadView d) {
    Progress p = d.progress();
    OutageWait w = d.outageWait();
    return new Json().put("id", d.id()).put("state", d.state().name().toLowerCase(Locale.ROOT))
        .put("url", d.url()).put("name", d.name()).put("file", d.fileIfChosen().map(Object::toString).orElse(null))
        .put("done", p.done()).put("length", p.length()).put("priority", d.priority())
        .put("error", d.error())
        .put("nextTry", w == null ? null : w.nextTry().toString())
        .put("lastError", w == null ? null : w.lastError());
  }
}
