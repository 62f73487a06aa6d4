package dev.braid.cli;

import dev.braid.core.Checksum;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.OutageRetry;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.HostSettings;
import dev.braid.core.rules.Rules;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns {@code braid get}'s URLs, list and options into the downloads to run, under the per-host rules.
 * Confined to the thread running the command.
 */
final class GetRequests {
  private final GetOptions options;

  /** The per-host rules and categories, read once the arguments are parsed. */
  private final Rules rules;

  /** Who the get runs for: the folder its relative paths start from, its streams. */
  private final Caller caller;

  /** The Metalinks among the arguments and the list; made by {@link #items()}. */
  private MetalinkSources metalinks;

  GetRequests(GetOptions options, Rules rules, Caller caller) {
    this.options = options;
    this.rules = rules;
    this.caller = caller;
  }

  /** The command line's URLs, then the list's entries, every one checked before anything starts. */
  List<GetItem> items() throws DownloadException {
    if (options.inputList() == null && options.urls().isEmpty()) {
      throw new InvalidRequestException("no URL given (braid get URL, or braid get -i LIST)");
    }
    boolean many = options.inputList() != null || options.urls().size() > 1;
    boolean oneUrlOnly = options.file() != null || options.checksum() != null || !options.mirrors().isEmpty();
    if (many && oneUrlOnly) {
      throw new InvalidRequestException("-o, --checksum and --mirror apply to one URL; give them per entry in a list (-i)");
    }
    if (options.urls().stream().anyMatch(MetalinkSources::names) && oneUrlOnly) {
      throw new InvalidRequestException("-o, --checksum and --mirror do not apply to a Metalink, which names its files,"
          + " hashes and mirrors (use -d for the folder)");
    }
    metalinks = new MetalinkSources(options.metalink(), this::defaults, options.quiet() || options.json() ? null : caller.err(),
        caller);
    List<GetItem> out = new ArrayList<>();
    for (String url : options.urls()) {
      if (MetalinkSources.names(url)) {
        out.addAll(metalinks.add(url, options.dir()));
        continue;
      }
      DownloadRequestBuilder b = defaults(url).file(options.file()).mirrors(options.mirrors());
      if (options.checksum() != null) {
        b.checksum(Checksum.parse(options.checksum()));
      }
      out.add(new GetItem.Built(b.build()));
    }
    if (options.inputList() != null) {
      InputList list = InputList.read(options.inputList(), options.dir(), this::defaults, caller);
      out.addAll(list.entries());
      for (InputList.MetalinkLine m : list.metalinks()) {
        out.addAll(metalinks.add(m.source(), m.folder()));
      }
    }
    return out;
  }

  /** The Metalinks among the arguments and the list, some perhaps still to fetch; made by {@link #items()}. */
  MetalinkSources metalinks() {
    return metalinks;
  }

  /** A request for {@code url}: the rules for its host first, then the options given here, which win. */
  private DownloadRequestBuilder defaults(String url) throws InvalidRequestException {
    Path folder = options.dir() != null ? options.dir() : rules.categoryFor(url).map(c -> c.folder()).orElse(null);
    DownloadRequestBuilder b = DownloadRequest.builder(url).directory(folder).overwrite(options.overwrite())
        .restartIfChanged(!options.noRestart());
    HostSettings host = rules.forUrl(url);
    host.applyTo(b);
    options.applyTo(b, host);
    if (options.outage().retryForGiven()) {
      // its own policy: a daemon this get hands it to waits as long as asked here
      b.outageRetry(options.outage().policy(OutageRetry.NONE));
    } else if (!options.detach()) {
      // a get in the foreground ends as it would without a daemon (exit 3 after its --retries),
      // not after the daemon's hour of waiting; a --detach one is the daemon's to wait out
      b.outageRetry(OutageRetry.NONE);
    }
    return b;
  }

  /** The requests of {@code items}, in their order. */
  static List<DownloadRequest> of(List<GetItem> items) throws InvalidRequestException {
    List<DownloadRequest> out = new ArrayList<>();
    for (GetItem i : items) {
      out.add(i.request());
    }
    return out;
  }
}
