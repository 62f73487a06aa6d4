package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.DownloadException;
import dev.braid.core.rules.Rules;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** {@code braid resume ID}: continue a paused, failed or interrupted download in the foreground, wherever its queue runs. */
final class ResumeCommand implements Callable<Integer> {
  private final PositionalParamSpec id = QueueArguments.id();

  private final EngineOptions engine = new EngineOptions();

  private final OptionSpec quiet = CommandModel.flag("print nothing but errors", "-q", "--quiet").build();

  /** Who the command runs for: its streams, its daemon. */
  private final Caller caller;

  ResumeCommand(Caller caller) {
    this.caller = caller;
  }

  /** The command's model; its values are read after picocli has parsed the arguments into it. */
  CommandSpec spec() {
    CommandSpec spec = CommandModel.command("resume", this,
        "Continue a paused, failed or interrupted download of the queue in the foreground.");
    spec.addPositional(id).addOption(quiet);
    engine.addTo(spec);
    return spec;
  }

  @Override
  public Integer call() {
    return run(caller, engine, this.id.getValue(), null, CommandModel.isSet(quiet));
  }

  /**
   * Continues download {@code id} (from {@code newUrl} when given: {@code braid refresh}) through
   * the client {@link ClientChoice} picks, in the foreground; the exit code.
   */
  static int run(Caller caller, EngineOptions engine, long id, URI newUrl, boolean quiet) {
    boolean[] here = {false};
    ClientChoice.Engine local = new ClientChoice.Engine() {
      @Override
      public BraidBuilder builder() throws DownloadException {
        return engine.builder();
      }

      @Override
      public void built(Braid braid) {
        here[0] = true;
        if (!quiet) {
          EngineOptions.announceMetrics(braid, caller.err());
        }
      }
    };
    try (BraidClient client = ClientChoice.open(caller, engine.stateAnchor(), local, Rules.NONE)) {
      if (!here[0]) {
        caller.throughDaemon();
      }
      return new ClientGet(client, caller, new GetOutput(quiet, false, Duration.ofSeconds(1), OutageHint.of(false), false),
          here[0])
          .resume(id, newUrl);
    } catch (DownloadException e) {
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (ClientException e) {
      caller.err().println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCode.INTERRUPTED;
    }
  }
}
