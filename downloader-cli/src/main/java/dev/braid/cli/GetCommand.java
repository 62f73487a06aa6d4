package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.LocalClient;
import dev.braid.client.remote.DaemonLink;
import dev.braid.core.Braid;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadFailure;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.Rules;
import dev.braid.rpc.WritableFolders;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code braid get URL... | -i LIST}: download files, resuming what an earlier run left. Picks the
 * engine that runs them, a daemon's or one this process builds ({@link LocalEngine}), and runs them
 * the same way through its client ({@link ClientGet}); turns errors into exit codes.
 */
final class GetCommand implements Callable<Integer> {
  private final GetOptions options = new GetOptions();

  /** Who the get runs for: its streams, its folder, the daemon it hands its downloads to. */
  private final Caller caller;

  GetCommand(Caller caller) {
    this.caller = caller;
  }

  /** The command's model; its values are read after picocli has parsed the arguments into it. */
  CommandSpec spec() {
    CommandSpec spec = CommandModel.command("get", this,
        "Download each URL (or each entry of a list) over several connections.", "Run the same command again to resume.");
    options.addTo(spec);
    GetHelp.applyTo(spec);
    return spec;
  }

  @Override
  public Integer call() {
    PrintStream err = caller.err();
    try {
      options.net().validate();
      if (StreamGet.asked(options)) {
        return new StreamGet(options, caller).run();
      }
      Rules rules = options.rulesFile().load();
      GetRequests requests = new GetRequests(options, rules, caller);
      List<GetItem> items = requests.items();
      if (options.jobsAtOnce() < 1) {
        throw new InvalidRequestException("-j must be at least 1");
      }
      Optional<DaemonLink.Endpoint> daemon = caller.daemon(options.engine().stateAnchor());
      if (daemon.isPresent() && requests.metalinks().anyPending()) {
        throw new InvalidRequestException("a Metalink URL is fetched by braid get itself, and a braid daemon runs this"
            + " state database: give the daemon a local .meta4 file instead");
      }
      List<DownloadRequest> handed = daemon.isPresent() ? absolute(GetRequests.of(items)) : List.of();
      Optional<Path> refused = daemon.isEmpty() ? Optional.empty() : refusedFolder(daemon.get(), handed);
      if (refused.isPresent() && options.detach()) {
        // a detached get is the daemon's to run: refused as the daemon refuses such a folder
        err.println("braid: the daemon refused the download: dir " + refused.get() + " is outside the folders this daemon"
            + " may write to (its -d folder and --allow-dir)");
        return ExitCode.USAGE;
      }
      if (daemon.isPresent() && refused.isEmpty()) {
        if (options.hooks().any()) {
          err.println("braid: the daemon runs the downloads and its own hooks (braid daemon --on-download-...);"
              + " the hooks given here do not run");
        }
        List<DownloadRequest> toDaemon = options.net().forDaemon(handed);
        caller.throughDaemon();
        try (BraidClient client = caller.connect(daemon.get())) {
          // the daemon's queue holds the whole list at once, as it always did
          return clientGet(client, false).run(toDaemon.stream().map(GetItem.Built::new).toList(), single(items),
              options.detach(), Integer.MAX_VALUE);
        }
      }
      caller.engineHere();
      if (refused.isPresent()) {
        err.println("braid: the daemon of this state database may not write to " + refused.get() + " (it writes under "
            + daemon.orElseThrow().folders().stream().map(Path::toString).collect(Collectors.joining(", "))
            + "): downloading in this process");
      }
      LocalEngine engine = new LocalEngine(options, caller);
      try (Braid braid = engine.build(items, rules)) {
        if (requests.metalinks().anyPending()) {
          items.addAll(requests.metalinks().fetchPending(braid));
        }
        if (options.detach()) {
          return engine.enqueue(braid, items);
        }
        try (BraidClient client = new LocalClient(braid, Rules.NONE)) {
          return clientGet(client, true).run(items, single(items), false, window());
        }
      }
    } catch (DownloadException e) {
      return fail(err, e);
    } catch (ClientException e) {
      if (e.getCause() instanceof DownloadException de) {
        // refused by the engine of this process: its own words, as a submit's
        return fail(err, de);
      }
      err.println("braid: " + e.getMessage());
      return ExitCode.of(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCode.INTERRUPTED;
    } catch (Caller.RunLocally back) {
      throw back;
    } catch (RuntimeException e) {
      return internal(err, e);
    }
  }

  private ClientGet clientGet(BraidClient client, boolean here) {
    return new ClientGet(client, caller, new GetOutput(options.quiet(), options.json(), options.progressInterval(),
        OutageHint.of(options.outage().retryForGiven()), options.debug()), here);
  }

  /** One URL, no list: a progress line of its own rather than a batch's. */
  private boolean single(List<GetItem> items) {
    return items.size() == 1 && options.inputList() == null;
  }

  /**
   * How many downloads of an engine of this process are in its queue at once: enough beyond those
   * running that a free slot never waits for the next add, and so few that a long list's memory
   * follows the window (a handle per download ran a 60,000-file list's heap full).
   */
  private int window() {
    return options.jobsAtOnce() + Math.max(options.jobsAtOnce(), 16);
  }

  /**
   * A request's folder the daemon may not write to, if any: a get run in such a folder downloads in
   * this process, as it would with no daemon, rather than fail (a detached get is refused: the
   * daemon would run it).
   */
  private Optional<Path> refusedFolder(DaemonLink.Endpoint daemon, List<DownloadRequest> requests) {
    if (daemon.folders().isEmpty()) {
      return Optional.empty();
    }
    // a list's requests share a few folders: each is resolved once, not once per request
    Set<Path> folders = new LinkedHashSet<>();
    for (DownloadRequest r : requests) {
      folders.add(r.file().map(Path::getParent).orElse(r.directory()));
    }
    for (Path folder : folders) {
      boolean inside;
      try {
        inside = WritableFolders.contain(daemon.folders(), folder);
      } catch (IOException e) {
        inside = false;
      }
      if (!inside) {
        return Optional.of(folder);
      }
    }
    return Optional.empty();
  }

  /**
   * The requests with their folders absolute, as the caller means them: a daemon runs elsewhere,
   * and a request naming no folder downloads into the caller's working directory, as in-process.
   */
  private List<DownloadRequest> absolute(List<DownloadRequest> requests) throws InvalidRequestException {
    Path here = caller.resolve(Path.of("")).toAbsolutePath();
    List<DownloadRequest> out = new java.util.ArrayList<>();
    for (DownloadRequest r : requests) {
      DownloadRequestBuilder b = r.toBuilder();
      if (r.file().isPresent()) {
        Path file = here.resolve(r.file().get()).normalize();
        b.file(file).directory(file.getParent());
      } else {
        b.directory(here.resolve(r.directoryGiven() ? r.directory() : here).normalize());
      }
      out.add(b.build());
    }
    return out;
  }

  private int fail(PrintStream err, DownloadException e) {
    // an outage: the bytes are kept, and waiting may be all it takes (on the one error line)
    String hint = DownloadFailure.of(e).passes() ? OutageHint.of(options.outage().retryForGiven()) : "";
    err.println("braid: " + e.getMessage() + hint);
    if (options.debug()) {
      e.printStackTrace(err);
    }
    return ExitCode.of(e);
  }

  private int internal(PrintStream err, Throwable t) {
    return internalError(err, t, options.debug());
  }

  /** Reports a bug: one line, and the stack trace with {@code --debug}. */
  static int internalError(PrintStream err, Throwable t, boolean debug) {
    err.println("braid: internal error: " + t);
    if (debug) {
      t.printStackTrace(err);
    } else {
      err.println("braid: run with --debug for details");
    }
    return ExitCode.INTERNAL;
  }
}
