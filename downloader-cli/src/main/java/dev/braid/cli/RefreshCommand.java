package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.LocalFileException;
import dev.braid.store.DownloadState;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code braid refresh ID NEWURL}: continue a paused or failed download from a new link to the
 * same file (an expired signed URL renewed), in the foreground. The bytes on disk are kept only
 * where NEWURL proves to serve the same file; otherwise nothing is spliced and it exits 10.
 */
final class RefreshCommand implements Callable<Integer> {
  private final PositionalParamSpec id = QueueArguments.id();
  private final PositionalParamSpec url = PositionalParamSpec.builder().paramLabel("NEWURL").arity("1").required(true)
      .index("1").description("the new http or https URL of the same file").build();

  private final EngineOptions engine = new EngineOptions();

  private final OptionSpec quiet = CommandModel.flag("print nothing but errors", "-q", "--quiet").build();

  /** The command's model; its values are read after picocli has parsed the arguments into it. */
  CommandSpec spec() {
    CommandSpec spec = CommandModel.command("refresh", this,
        "Continue a paused or failed download of the queue from a new URL of the same file.");
    spec.addPositional(id).addPositional(url).addOption(quiet);
    engine.addTo(spec);
    return spec;
  }

  @Override
  public Integer call() {
    long id = this.id.getValue();
    boolean quiet = CommandModel.isSet(this.quiet);
    try (Braid braid = engine.builder().build()) {
      Download d = QueueArguments.find(braid, id);
      if (d.state() == DownloadState.COMPLETED) {
        throw new InvalidRequestException("download #" + id + " is already complete: there is nothing to refresh");
      }
      if (d.state() == DownloadState.ACTIVE) {
        throw new LocalFileException("download #" + id + " is being downloaded by another braid process (pause it first)");
      }
      d.changeUrl(parse(url.getValue()));
      return ForegroundRun.resume(d, quiet);
    } catch (DownloadException e) {
      System.err.println("braid: " + e.getMessage());
      return ExitCode.of(e);
    }
  }

  private static URI parse(String given) throws InvalidRequestException {
    try {
      return new URI(given);
    } catch (URISyntaxException e) {
      throw new InvalidRequestException("not a URL: " + given);
    }
  }
}
