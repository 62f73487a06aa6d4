package dev.braid.cli.mcp;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.DownloadView;
import dev.braid.core.DownloadRequest;
import dev.braid.core.QueueOrder;
import dev.braid.store.DownloadState;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.PrintStream;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools {@code braid mcp} offers, each a name, a description for the agent, an input schema
 * and a call through the client port. A call that cannot be done (a bad argument, an unknown id,
 * a URL or folder the engine refuses, a daemon gone) answers a tool error with the reason; it
 * never ends the server.
 */
public final class DownloadTools implements AutoCloseable {
  /** The longest wait_for_download: under the 60 s that MCP clients commonly give a call, so that the answer arrives. */
  static final int MAX_WAIT_SECONDS = 50;
  static final int DEFAULT_WAIT_SECONDS = 30;
  /** list_downloads' page: an agent's context is no place for a queue's whole history. */
  static final int MAX_PAGE = 500;
  static final int DEFAULT_PAGE = 100;

  private final BraidClient client;
  private final DownloadWaits waits;
  private final AddRequests adds;
  private final ToolResults results;
  private final PrintStream log;

  /**
   * Tools over {@code client}; they hear its downloads' events from now until {@link #close()}.
   *
   * @param client the engine's port, in this process or a daemon's
   * @param adds how add_download's arguments become a request
   * @param results how answers show downloads
   * @param log where an unexpected failure's stack trace goes (standard error: standard output is the protocol's)
   * @throws ClientException when the engine cannot be followed (a daemon gone)
   */
  public DownloadTools(BraidClient client, AddRequests adds, ToolResults results, PrintStream log) throws ClientException {
    if (client == null || adds == null || results == null || log == null) {
      throw new IllegalArgumentException("tools need a client, adds, results and a log");
    }
    this.client = client;
    this.waits = new DownloadWaits(client);
    this.adds = adds;
    this.results = results;
    this.log = log;
  }

  /** What a tool does to the queue, told to the client as the tool's annotations. */
  private enum Effect {
    READS(true, false, true, false), ADDS(false, false, false, true), CHANGES(false, false, true, false),
    REMOVES(false, true, true, false);

    final boolean readOnly;
    final boolean destructive;
    final boolean idempotent;
    /** Whether it reaches outside this machine's queue: an add fetches from the web. */
    final boolean openWorld;

    Effect(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {
      this.readOnly = readOnly;
      this.destructive = destructive;
      this.idempotent = idempotent;
      this.openWorld = openWorld;
    }
  }

  /** A tool's work: an answer, or a refusal as an exception. */
  @FunctionalInterface
  private interface Call {
    CallToolResult run(ToolArguments arguments) throws ToolArgumentException, ClientException;
  }

  /** {@return every tool, in the order a client lists them} */
  public List<SyncToolSpecification> all() {
    Map<String, Object> add = new LinkedHashMap<>();
    add.put(AddRequests.URL, Schemas.property("string", "the file's http or https URL"));
    add.put(AddRequests.FOLDER, Schemas.property("string", "absolute path of the folder to write into, made if missing"
        + " (default: braid mcp's -d folder, else the engine's: its rules' category for the URL, else its download folder)"));
    add.put(AddRequests.FILE_NAME, Schemas.property("string", "the file's name in the folder, not a path;"
        + " needs a folder (or braid mcp's -d) (default: the name the server gives)"));
    add.put(AddRequests.CHECKSUM, Schemas.property("string", "the digest the file must match, as ALGO=HEX, e.g. sha-256=9f86d0...;"
        + " a mismatch fails the download"));
    add.put(AddRequests.CONNECTIONS, Schemas.integer("connections to use (default: adaptive)", 1, DownloadRequest.MAX_CONNECTIONS));
    Map<String, Object> list = new LinkedHashMap<>();
    list.put("offset", Schemas.integer("how many downloads to skip, oldest first (default 0)", 0, Integer.MAX_VALUE));
    list.put("limit", Schemas.integer("at most this many (default " + DEFAULT_PAGE + ")", 1, MAX_PAGE));
    Map<String, Object> remove = new LinkedHashMap<>();
    remove.put("id", Schemas.id());
    remove.put("delete_file", Schemas.property("boolean", "also delete its file, partial or complete (default false)"));
    Map<String, Object> wait = new LinkedHashMap<>();
    wait.put("id", Schemas.id());
    wait.put("timeout_seconds", Schemas.integer("the longest wait, in seconds (default " + DEFAULT_WAIT_SECONDS + ")", 1,
        MAX_WAIT_SECONDS));
    return List.of(
        tool("add_download", "Add a download", "Starts downloading a file over several connections into Braid's queue,"
            + " resumable after interruptions. Returns the new download's status (its id for the other tools).",
            Schemas.object(add, List.of(AddRequests.URL)), Effect.ADDS, this::add),
        tool("download_status", "Show a download", "The status of one download: state (queued, active, paused, completed,"
            + " failed), bytes done and length, file, error.", Schemas.idOnly(), Effect.READS, a -> show(a.id())),
        tool("list_downloads", "List downloads", "The downloads in the queue, oldest first, a page at a time, with each one's"
            + " status; total is how many the queue holds.", Schemas.object(list, List.of()), Effect.READS, this::list),
        tool("pause_download", "Pause a download", "Stops a queued or active download, keeping its bytes for a resume;"
            + " returns its status.", Schemas.idOnly(), Effect.CHANGES, a -> {
              client.pause(a.id());
              return show(a.id());
            }),
        tool("resume_download", "Resume a download", "Resumes a paused download, or retries a failed one from the bytes"
            + " on disk; returns its status.", Schemas.idOnly(), Effect.CHANGES, a -> {
              client.resume(a.id());
              return show(a.id());
            }),
        tool("remove_download", "Remove a download", "Takes a download out of the queue, stopping it first; with"
            + " delete_file its file goes too.", Schemas.object(remove, List.of("id")), Effect.REMOVES, a -> {
              boolean delete = a.flag("delete_file");
              client.remove(a.id(), delete);
              return results.removed(a.id(), delete);
            }),
        tool("wait_for_download", "Wait for a download", "Waits until a download completes, fails or is paused, at most"
            + " timeout_seconds; returns its status and finished: false when it is still going (call again to wait on).",
            Schemas.object(wait, List.of("id")), Effect.READS, this::await));
  }

  private CallToolResult add(ToolArguments a) throws ToolArgumentException, ClientException {
    DownloadRequest request = adds.request(a);
    long id = client.add(List.of(request), false).get(0);
    return show(id);
  }

  private CallToolResult list(ToolArguments a) throws ToolArgumentException, ClientException {
    int offset = a.optionalInt("offset", 0, Integer.MAX_VALUE).orElse(0);
    int limit = a.optionalInt("limit", 1, MAX_PAGE).orElse(DEFAULT_PAGE);
    List<DownloadView> page = client.page(EnumSet.allOf(DownloadState.class), QueueOrder.OLDEST_FIRST, offset, limit);
    long total = client.counts().values().stream().mapToLong(Long::longValue).sum();
    return results.page(page, offset, total);
  }

  private CallToolResult await(ToolArguments a) throws ToolArgumentException, ClientException {
    long id = a.id();
    int seconds = a.optionalInt("timeout_seconds", 1, MAX_WAIT_SECONDS).orElse(DEFAULT_WAIT_SECONDS);
    Optional<DownloadWaits.Outcome> o = waits.await(id, Duration.ofSeconds(seconds));
    DownloadWaits.Outcome outcome = o.orElseThrow(() -> notFound(id));
    return results.waited(outcome.download(), outcome.finished());
  }

  /** Stops hearing the downloads' events (the waits still going end at their timeout). */
  @Override
  public void close() {
    waits.close();
  }

  private CallToolResult show(long id) throws ClientException {
    return results.download(client.download(id).orElseThrow(() -> notFound(id)));
  }

  private static ClientException notFound(long id) {
    return new ClientException(ClientException.Reason.NOT_FOUND, "no download #" + id + " in the queue (see list_downloads)", null);
  }

  private SyncToolSpecification tool(String name, String title, String description, Map<String, Object> schema,
      Effect effect, Call call) {
    Tool tool = Tool.builder(name).title(title).description(description).inputSchema(schema)
        .annotations(new ToolAnnotations(title, effect.readOnly, effect.destructive, effect.idempotent, effect.openWorld, null)).build();
    return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
      try {
        return call.run(new ToolArguments(request.arguments()));
      } catch (ToolArgumentException | ClientException e) {
        return ToolResults.error(name + ": " + e.getMessage());
      } catch (RuntimeException e) {
        // a bug here, not the agent's doing: said in the answer, its trace on standard error, the server serving on
        log.println("braid mcp: " + name + " failed:");
        e.printStackTrace(log);
        return ToolResults.error(name + ": internal error: " + e);
      }
    }).build();
  }
}
