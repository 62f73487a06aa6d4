package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.OutageWait;
import dev.braid.core.Progress;
import java.time.Instant;
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
  int run(Braid braid) throws DownloadException {
    Download d = QueueArguments.find(braid, id.getValue());
    if (CommandModel.isSet(json)) {
      caller.out().println(json(d));
      return ExitCode.OK;
    }
    Progress p = d.progress();
    caller.out().println("id:       " + d.id());
    caller.out().println("url:      " + d.url());
    caller.out().println("file:     " + d.file().map(Object::toString).orElse("(not chosen yet)"));
    caller.out().println("state:    " + OutageText.state(d));
    OutageText.of(d).ifPresent(w -> caller.out().println("retry:    " + w));
    caller.out().println("progress: " + ListCommand.percent(p) + " (" + Units.bytes(p.done())
        + (p.length() >= 0 ? " of " + Units.bytes(p.length()) : "") + ")");
    d.remote().ifPresent(r -> {
      if (r.etag() != null) {
        caller.out().println("etag:     " + r.etag());
      }
      if (r.lastModified() != null) {
        caller.out().println("modified: " + r.lastModified());
      }
    });
    d.error().ifPresent(e -> caller.out().println("error:    " + e));
    return ExitCode.OK;
  }

  @Override
  int run(RpcClient rpc) throws java.io.IOException, RpcClient.RpcError, InterruptedException {
    long id = this.id.<Long>getValue();
    java.util.Optional<RpcValue> found = entry(rpc, id, caller.err());
    if (found.isEmpty()) {
      return ExitCode.USAGE;
    }
    RpcValue e = found.get();
    if (CommandModel.isSet(json)) {
      caller.out().println(json(e));
      return ExitCode.OK;
    }
    Progress p = RemoteFollow.progress(e);
    caller.out().println("id:       " + id);
    caller.out().println("url:      " + e.path("url").asText());
    caller.out().println("file:     " + (e.path("file").isTextual() ? e.path("file").asText() : "(not chosen yet)"));
    caller.out().println("state:    " + OutageText.state(e));
    OutageText.of(e).ifPresent(w -> caller.out().println("retry:    " + w));
    caller.out().println("progress: " + ListCommand.percent(p) + " (" + Units.bytes(p.done())
        + (p.length() >= 0 ? " of " + Units.bytes(p.length()) : "") + ")");
    if (e.path("etag").isTextual()) {
      caller.out().println("etag:     " + e.path("etag").asText());
    }
    if (e.path("lastModified").isTextual()) {
      caller.out().println("modified: " + e.path("lastModified").asText());
    }
    if (e.path("error").isTextual()) {
      caller.out().println("error:    " + e.path("error").asText());
    }
    return ExitCode.OK;
  }

  /** The --json object of a daemon's entry: the same keys as of an in-process download. */
  static Json json(RpcValue e) {
    return new Json().put("id", e.path("id").asLong()).put("state", e.path("state").asText())
        .put("url", e.path("url").asText()).put("name", e.path("name").asText()).put("file", e.path("file").textValue())
        .put("done", e.path("done").asLong()).put("length", e.path("length").asLong()).put("priority", e.path("priority").asInt())
        .put("error", e.path("error").textValue())
        .put("nextTry", e.has("nextTry") ? Instant.ofEpochMilli(e.path("nextTry").asLong()).toString() : null)
        .put("lastError", e.path("lastError").textValue());
  }

  static Json json(Download d) {
    Progress p = d.progress();
    return new Json().put("id", d.id()).put("state", d.state().name().toLowerCase(java.util.Locale.ROOT))
        .put("url", d.url()).put("name", d.name()).put("file", d.file().map(Object::toString).orElse(null))
        .put("done", p.done()).put("length", p.length()).put("priority", d.priority())
        .put("error", d.error().orElse(null))
        .put("nextTry", d.outageWait().map(w -> w.nextTry().toString()).orElse(null))
        .put("lastError", d.outageWait().map(OutageWait::lastError).orElse(null));
  }
}
