package dev.braid.cli;

import picocli.CommandLine.Model.CommandSpec;

/**
 * The layout of {@code braid get --help}: a short synopsis instead of every option in brackets,
 * the options in sections a reader can scan, and the exit codes.
 */
final class GetHelp {
  private GetHelp() {}

  private static final OptionSections SECTIONS = new OptionSections()
      .section("Target", "--input-file", "--output", "--dir", "--overwrite", "--no-restart", "--checksum", "--mirror",
          "--jobs", "--detach", "--url-refresh-command", "--state-db")
      .section("Rules", "--rules", "--no-rules")
      .section("Connections", "--connections", "--max-connections", "--max-connections-per-host", "--min-split-size", "--sequential",
          "--lowest-speed", "--limit-rate", "--retries", "--retry-for", "--http2", "--http1.1", "--http-auto")
      .section("Metalink", "--metalink-location", "--metalink-preferred-protocol", "--select-file")
      .section("Network", "--header", "--user-agent", "--user", "--bearer", "--proxy", "--no-proxy", "--connect-timeout",
          "--read-timeout", "--first-byte-timeout", "--deadline")
      .section("TLS", "--insecure", "--ca-cert", "--tls-timeout", "--allow-insecure-redirects")
      .section("Hooks", HookOptions.NAMES)
      .section("Output", "--quiet", "--json", "--progress-interval", "--debug", "--metrics-port", "--metrics-address",
          "--help", "--version");

  /** Lays out the help of {@code spec}, the model of {@code braid get}. */
  static void applyTo(CommandSpec spec) {
    spec.usageMessage()
        .customSynopsis("braid get [OPTIONS] (URL... | -i LIST)");
    ExitCode.describeIn(spec.usageMessage());
    SECTIONS.applyTo(spec);
  }
}
