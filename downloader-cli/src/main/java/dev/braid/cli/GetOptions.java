package dev.braid.cli;

import static dev.braid.cli.CommandModel.flag;
import static dev.braid.cli.CommandModel.isSet;
import static dev.braid.cli.CommandModel.option;
import static dev.braid.cli.CommandModel.repeatable;
import static dev.braid.cli.CommandModel.seconds;
import static dev.braid.cli.CommandModel.set;
import static dev.braid.cli.CommandModel.strings;

import dev.braid.core.Braid;
import dev.braid.core.ByteSize;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.HostSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The options and arguments of {@code braid get}, with the mixins it shares with other commands.
 * Picocli writes the values while it parses; after that only the thread running the command reads them.
 */
final class GetOptions {
  private final PositionalParamSpec urls = PositionalParamSpec.builder().paramLabel("URL").arity("0..*")
      .type(List.class).auxiliaryTypes(String.class)
      .description("http or https URLs, or Metalink 4 files (.meta4: a local file or an http(s) URL)").build();

  private final OptionSpec inputList = option(Path.class, "LIST",
      "download the URLs listed in LIST (- for standard input): a URL per line, indented option lines"
          + " after it (out=, dir=, checksum=, mirror=, connections=, limit-rate=, priority=), # comments; a .meta4"
          + " entry (file or URL, with dir= only) adds the files of that Metalink",
      "-i", "--input-file").build();

  private final OptionSpec jobs = option(int.class, "N", "downloads at once (default: ${DEFAULT-VALUE})", "-j", "--jobs")
      .defaultValue(String.valueOf(Braid.DEFAULT_MAX_ACTIVE_DOWNLOADS)).build();

  private final OptionSpec file = option(Path.class, "FILE", "write to FILE (one URL only); - writes the file to standard"
      + " output, in order, nothing kept on disk (no resume)", "-o", "--output").build();

  private final OptionSpec sequential = flag("fetch the file from its front: every connection works within a window"
      + " after the first missing byte, so the part file's complete prefix grows steadily (to open it while the rest"
      + " arrives)", "--sequential").build();

  private final OptionSpec dir = option(Path.class, "DIR",
      "write into DIR under the server's name, made if missing (default: .)", "-d", "--dir").build();

  private final OptionSpec connections = option(OptionalInt.class, "N|auto",
      "connections per download: a fixed count 1-64, or auto to follow the observed throughput (default: auto)",
      "-c", "--connections").converters(new ConnectionsConverter()).defaultValue("auto").build();

  private final OptionSpec maxConnections = option(int.class, "N",
      "cap of the automatic count, 1-64 (default: ${DEFAULT-VALUE})", "--max-connections")
      .defaultValue(String.valueOf(DownloadRequest.DEFAULT_MAX_CONNECTIONS)).build();

  private final OptionSpec minSplit = option(long.class, "SIZE",
      "split off no less than SIZE (default: " + ByteSize.format(DownloadRequest.DEFAULT_MIN_SPLIT) + "), except from a connection that needs a second"
          + " or more for its last piece: half of it, down to 64K", "--min-split-size")
      .converters(new ByteSizeConverter()).defaultValue(String.valueOf(DownloadRequest.DEFAULT_MIN_SPLIT)).build();

  private final OptionSpec mirrors = repeatable("URL", "another URL of the same file (repeatable; one URL only)", "--mirror")
      .build();

  private final OptionSpec checksum = option(String.class, "ALGO=HEX",
      "verify the file before its final rename: sha-256, sha-512, sha-1, md5, sha3-256, blake2b-512 or blake3 (one URL only)",
      "--checksum").build();

  private final OptionSpec overwrite = flag("replace an existing target file; start over where a new URL cannot continue"
      + " a partial one", "--overwrite").build();
  private final OptionSpec urlRefreshCommand = option(String.class, "CMD", "when the link expires mid-way (HTTP 401, 403,"
      + " 404 or 410), run CMD with the old URL as its argument and continue from the URL it prints", "--url-refresh-command")
      .build();

  private final OptionSpec noRestart = flag("if the remote file changed, fail (exit 5) instead of downloading it again",
      "--no-restart").build();

  private final EngineOptions engine = new EngineOptions();
  private final ConnectionOptions net = new ConnectionOptions();

  private final HookOptions hooks = new HookOptions();
  private final RulesOptions rulesFile = new RulesOptions();
  private final MetalinkOptions metalink = new MetalinkOptions();

  private final OutageOptions outage = new OutageOptions();

  private final OptionSpec quiet = flag("print nothing but errors", "-q", "--quiet").build();

  private final OptionSpec json = flag("print newline-delimited JSON events on standard output instead of progress", "--json")
      .build();

  private final OptionSpec progressInterval = option(double.class, "SECONDS",
      "seconds between JSON progress events (default: ${DEFAULT-VALUE})", "--progress-interval").defaultValue("1").build();

  private final OptionSpec detach = flag("only add the downloads to the queue and return: a running braid daemon (or a later"
      + " one, or braid resume) downloads them; prints each one's id, gid and URL", "--detach").build();

  private final OptionSpec debug = flag("print each change of the connection count and why, the download's notes"
      + " (mirrors left out, server quirks worked around), connection metrics at the end,"
      + " and stack traces with errors", "--debug").build();

  /** Adds the arguments and options to {@code spec}, in the order its help lists them. */
  void addTo(CommandSpec spec) {
    spec.addPositional(urls);
    for (OptionSpec o : List.of(inputList, jobs, connections, maxConnections, minSplit, sequential, mirrors, checksum, overwrite,
        urlRefreshCommand,
        noRestart, quiet, json, progressInterval, detach, debug)) {
      spec.addOption(o);
    }
    spec.addArgGroup(ArgGroupSpec.builder().exclusive(true).multiplicity("0..1").addArg(file).addArg(dir).build());
    engine.addTo(spec);
    outage.addToGet(spec);
    net.addTo(spec);
    hooks.addTo(spec);
    rulesFile.addTo(spec);
    metalink.addTo(spec);
  }

  /** Gives {@code b} the per-download options given here, over what {@code host}'s rules set. */
  void applyTo(DownloadRequestBuilder b, HostSettings host) throws InvalidRequestException {
    if (CommandModel.given(maxConnections) || host.maxConnections().isEmpty()) {
      set(maxConnections, () -> b.maxConnections(maxConnections.<Integer>getValue()));
    }
    set(minSplit, () -> b.minSplitSize(minSplit.<Long>getValue()));
    if (isSet(sequential)) {
      b.sequential(true);
    }
    OptionalInt pinned = connections.getValue();
    if (pinned.isPresent()) {
      set(connections, () -> b.connections(pinned.getAsInt()));
    } else if (CommandModel.given(connections)) {
      b.adaptiveConnections();
    }
    if (host.userAgent().isPresent()) {
      net.userAgentTo(b);
    }
    String refresher = urlRefreshCommand.getValue();
    if (refresher != null) {
      b.urlRefresher(new CommandRefresher(refresher));
    }
    net.applyTo(b);
  }

  EngineOptions engine() {
    return engine;
  }

  OutageOptions outage() {
    return outage;
  }

  ConnectionOptions net() {
    return net;
  }

  HookOptions hooks() {
    return hooks;
  }

  RulesOptions rulesFile() {
    return rulesFile;
  }

  MetalinkOptions metalink() {
    return metalink;
  }

  boolean quiet() {
    return isSet(quiet);
  }

  boolean json() {
    return isSet(json);
  }

  boolean debug() {
    return isSet(debug);
  }

  int jobsAtOnce() {
    return jobs.<Integer>getValue();
  }

  List<String> urls() {
    return strings(urls);
  }

  List<String> mirrors() {
    return strings(mirrors);
  }

  Path inputList() {
    return inputList.getValue();
  }

  Path file() {
    return file.getValue();
  }

  Path dir() {
    return dir.getValue();
  }

  String checksum() {
    return checksum.getValue();
  }

  boolean overwrite() {
    return isSet(overwrite);
  }

  boolean noRestart() {
    return isSet(noRestart);
  }

  boolean detach() {
    return isSet(detach);
  }

  Duration progressInterval() {
    return seconds(progressInterval);
  }
}
