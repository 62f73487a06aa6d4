package dev.braid.cli;

import dev.braid.core.InvalidRequestException;
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

  /** Who the command runs for: its streams, its daemon. */
  private final Caller caller;

  RefreshCommand(Caller caller) {
    this.caller = caller;
  }

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
    URI newUrl;
    try {
      newUrl = parse(url.getValue());
    } catch (InvalidRequestException e) {
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.of(e);
    }
    return ResumeCommand.run(caller, engine, id.getValue(), newUrl, CommandModel.isSet(quiet));
  }

  private static URI parse(String given) throws InvalidRequestException {
    try {
      return new URI(given);
    } catch (URISyntaxException e) {
      throw new InvalidRequestException("not a URL: " + given);
    }
  }
}
