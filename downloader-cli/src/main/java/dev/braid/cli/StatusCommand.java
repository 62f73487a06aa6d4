package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.Progress;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** {@code braid status ID}: one download in detail. */
final class StatusCommand extends StoreCommand {
  private final PositionalParamSpec id = QueueArguments.id();

  private final OptionSpec json = CommandModel.flag("a JSON object instead of text", "--json").build();

  @Override
  CommandSpec spec() {
    return model("status", "Show one download of the queue.").addPositional(id).addOption(json);
  }

  @Override
  int run(Braid braid) throws DownloadException {
    Download d = QueueArguments.find(braid, id.getValue());
    if (CommandModel.isSet(json)) {
      System.out.println(json(d));
      return ExitCode.OK;
    }
    Progress p = d.progress();
    System.out.println("id:       " + d.id());
    System.out.println("url:      " + d.url());
    System.out.println("file:     " + d.file().map(Object::toString).orElse("(not chosen yet)"));
    System.out.println("state:    " + d.state().name().toLowerCase(java.util.Locale.ROOT));
    System.out.println("progress: " + ListCommand.percent(p) + " (" + Units.bytes(p.done())
        + (p.length() >= 0 ? " of " + Units.bytes(p.length()) : "") + ")");
    d.remote().ifPresent(r -> {
      if (r.etag() != null) {
        System.out.println("etag:     " + r.etag());
      }
      if (r.lastModified() != null) {
        System.out.println("modified: " + r.lastModified());
      }
    });
    d.error().ifPresent(e -> System.out.println("error:    " + e));
    return ExitCode.OK;
  }

  static Json json(Download d) {
    Progress p = d.progress();
    return new Json().put("id", d.id()).put("state", d.state().name().toLowerCase(java.util.Locale.ROOT))
        .put("url", d.url()).put("name", d.name()).put("file", d.file().map(Object::toString).orElse(null))
        .put("done", p.done()).put("length", p.length()).put("priority", d.priority())
        .put("error", d.error().orElse(null));
  }
}
