package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.remote.DaemonLink;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.LocalFileException;
import dev.braid.store.DownloadState;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** {@code braid resume ID}: continue a paused, failed or interrupted download here, in the foreground. */
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
        "Continue a paused, failed or interrupted download of the queue in this process.");
    spec.addPositional(id).addOption(quiet);
    engine.addTo(spec);
    return spec;
  }

  @Override
  public Integer call() {
    long id = this.id.getValue();
    boolean quiet = CommandModel.isSet(this.quiet);
    java.util.Optional<DaemonLink.Endpoint> daemon = caller.daemon(engine.stateAnchor());
    if (daemon.isPresent()) {
      caller.throughDaemon();
      try (BraidClient client = caller.connect(daemon.get())) {
        return new ClientGet(client, caller, quiet, false, java.time.Duration.ofSeconds(1), OutageHint.of(false)).resume(id);
      } catch (ClientException e) {
        caller.err().println("braid: " + e.getMessage());
        return ExitCode.of(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return ExitCode.INTERRUPTED;
      }
    }
    caller.engineHere();
    try (Braid braid = engine.builder().build()) {
      if (!quiet) {
        EngineOptions.announceMetrics(braid, System.err);
      }
      Download d = QueueArguments.find(braid, id);
      if (d.state() == DownloadState.COMPLETED) {
        System.err.println("braid: download #" + id + " is already complete: " + d.file().map(Object::toString).orElse(""));
        return ExitCode.OK;
      }
      if (d.state() == DownloadState.ACTIVE) {
        throw new LocalFileException("download #" + id + " is being downloaded by another braid process");
      }
      return ForegroundRun.resume(d, quiet);
    } catch (DownloadException e) {
      System.err.println("braid: " + e.getMessage());
      return ExitCode.of(e);
    }
  }
}
