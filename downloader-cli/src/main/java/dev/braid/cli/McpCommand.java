package dev.braid.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.braid.cli.mcp.AddRequests;
import dev.braid.cli.mcp.DownloadTools;
import dev.braid.cli.mcp.StdioMcpServer;
import dev.braid.cli.mcp.ToolResults;
import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.remote.StateAnchor;
import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.DownloadException;
import dev.braid.core.StateStoreException;
import dev.braid.core.rules.Rules;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code braid mcp}: a Model Context Protocol server on standard input and output, so that an AI
 * agent adds and follows downloads as tools ({@link DownloadTools}). It works through the client
 * port like the queue commands ({@link ClientChoice}): the daemon of its state database when one
 * runs, else an engine of this process. Always this process's own command (never relayed): its
 * standard output is the protocol's, and everything else this process prints goes to standard error.
 *
 * <p>It ends when its client closes the pipe (or on SIGTERM): an engine of this process stops, its
 * running downloads recorded with their progress for {@code braid resume}; a daemon's run on.
 */
final class McpCommand implements Callable<Integer> {
  /** How long a SIGTERM waits for the engine to record its downloads' progress. */
  private static final long CLOSE_WAIT_SECONDS = 30;

  private final OptionSpec stateDb = QueueArguments.stateDb();
  private final RulesOptions rules = new RulesOptions();
  private final OptionSpec dir = CommandModel.option(Path.class, "DIR", "download into DIR when a call names no folder"
      + " (default: the engine's choice: its rules' category of the URL, else its download folder)", "-d", "--dir").build();
  private final Caller caller = Caller.thisProcess();

  CommandSpec spec() {
    CommandSpec spec = CommandModel.command("mcp", this, "Serve the Model Context Protocol on standard input and output:"
        + " an AI agent's tools to add, follow, pause, resume and remove downloads.",
        "Through the daemon of the state database when one runs, else in this process; ends when the input closes.");
    spec.addOption(stateDb).addOption(dir);
    rules.addTo(spec);
    return spec;
  }

  @Override
  public Integer call() {
    // the protocol's channel, raw: JSON escapes every control character itself
    PrintStream protocol = TerminalStream.raw(caller.out());
    PrintStream err = caller.err();
    // nothing else may write there: a stray print of any library goes to standard error
    System.setOut(err);
    CountDownLatch closed = new CountDownLatch(1);
    AtomicReference<StdioMcpServer> serving = new AtomicReference<>();
    // a SIGTERM stops the server and waits, bounded, until the client closed (an engine of this
    // process records its downloads' progress)
    Caller.Registration hook = caller.onInterrupt(() -> {
      StdioMcpServer server = serving.get();
      if (server != null) {
        server.stop();
      }
      try {
        closed.await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    try {
      Rules loaded = rules.load();
      Path here = caller.resolve(Path.of("")).toAbsolutePath();
      Path folder = dir.getValue() == null ? null : here.resolve(dir.<Path>getValue()).normalize();
      try (BraidClient client = ClientChoice.open(caller, StateAnchor.of(QueueArguments.stateLocation(stateDb)),
          this::engine, loaded)) {
        ObjectMapper json = new ObjectMapper();
        try (DownloadTools tools = new DownloadTools(client, new AddRequests(folder),
            new ToolResults(d -> StatusCommand.json(d).toString(), json), err)) {
          StdioMcpServer server = new StdioMcpServer(tools.all(), json, caller.in(), protocol);
          serving.set(server);
          server.run();
          return ExitCode.OK;
        }
      }
    } catch (DownloadException e) {
      err.println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (ClientException e) {
      err.println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (StateStoreException e) {
      err.println("braid: " + e.getMessage());
      return ExitCode.LOCAL_IO;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCode.INTERRUPTED;
    } finally {
      closed.countDown();
      hook.remove();
    }
  }

  private BraidBuilder engine() throws DownloadException {
    BraidBuilder b = Braid.builder();
    QueueArguments.applyStateDb(stateDb, b);
    return b;
  }
}
