package dev.braid.cli.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.braid.core.Version;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * An MCP server of {@code tools} on a pair of streams (the process's standard input and output),
 * one client per process as the stdio transport has it, built on the official SDK.
 *
 * <p>Threads: the SDK reads the input on a thread of its own and writes the output on another;
 * tool calls run on Reactor's bounded elastic workers, so a wait does not hold up the other calls.
 * {@link #run()} holds the caller's thread until the input ends (and the answers still owed are
 * written, {@link AnswerLedger}) or {@link #stop()} is called, then closes the server.
 */
public final class StdioMcpServer {
  private static final String INSTRUCTIONS = "Braid downloads files over several connections and resumes them after"
      + " interruptions. add_download returns an id; wait_for_download waits for its end (call it again while finished"
      + " is false); download_status and list_downloads show the same fields as braid status --json.";

  /**
   * How long the end of the input waits for the answers still owed: the longest tool call (a
   * wait_for_download) and a margin.
   */
  private static final Duration DRAIN = Duration.ofSeconds(DownloadTools.MAX_WAIT_SECONDS + 10);

  private final List<SyncToolSpecification> tools;
  private final ObjectMapper json;
  private final InputStream in;
  private final OutputStream out;
  private final CountDownLatch stopped = new CountDownLatch(1);

  /**
   * A server of {@code tools} on {@code in} and {@code out}; nothing else may write to {@code out}.
   *
   * @param tools the tools it offers
   * @param json the mapper of the protocol's messages
   * @param in where the client's messages arrive
   * @param out where the answers go
   */
  public StdioMcpServer(List<SyncToolSpecification> tools, ObjectMapper json, InputStream in, OutputStream out) {
    if (tools == null || json == null || in == null || out == null) {
      throw new IllegalArgumentException("a server needs tools, a JSON mapper and both streams");
    }
    this.tools = List.copyOf(tools);
    this.json = json;
    this.in = in;
    this.out = out;
  }

  /**
   * Serves until the input ends (the client closed the pipe) and every request read is answered, or {@link #stop()}.
   *
   * @throws InterruptedException when the caller's thread is interrupted while serving
   */
  public void run() throws InterruptedException {
    JacksonMcpJsonMapper mapper = new JacksonMcpJsonMapper(json);
    AnswerLedger answers = new AnswerLedger(json);
    StdioServerTransportProvider transport = new StdioServerTransportProvider(mapper,
        answers.input(in, DRAIN, stopped::countDown), answers.output(out));
    McpSyncServer server = McpServer.sync(transport).serverInfo("braid", Version.get()).instructions(INSTRUCTIONS)
        .jsonMapper(mapper).jsonSchemaValidator(new DefaultJsonSchemaValidator(json))
        .capabilities(ServerCapabilities.builder().tools(false).build()).tools(tools).build();
    try {
      stopped.await();
    } finally {
      server.close();
    }
  }

  /** Ends {@link #run()} (a SIGTERM): the server closes as if its input had ended. */
  public void stop() {
    stopped.countDown();
  }
}
