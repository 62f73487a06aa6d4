package dev.braid.cli;

import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.Download;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.DownloadResult;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestCertificate;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code braid demo}: a first minute with Braid that needs no internet. It serves a generated file
 * from a server on loopback that throttles each connection (as many real servers do), downloads
 * it with one connection and with the default automatic count, checks both copies byte for byte,
 * and prints the speed-up. With {@code --https} the server speaks TLS 1.3 with a certificate made
 * for the run, which Braid is told to trust: the package-time training run of the AppCDS archive
 * uses it, so that the TLS stack's classes are in the archive too.
 */
final class DemoCommand implements Callable<Integer> {
  private final OptionSpec size = CommandModel.option(long.class, "SIZE", "file size (default: 16M)", "--size")
      .converters(new ByteSizeConverter()).defaultValue("16M").build();

  private final OptionSpec rate = CommandModel.option(long.class, "SIZE",
      "the server's limit per connection, per second (default: 2M)", "--rate")
      .converters(new ByteSizeConverter()).defaultValue("2M").build();

  private final OptionSpec https = CommandModel.flag(
      "serve over HTTPS with a certificate made for the run (about a second more: keytool makes it)", "--https").build();

  private final OptionSpec throughRpc = CommandModel.flag(
      "fetch it twice more with braid get's own command: in this process, and through aria2's JSON-RPC on a"
          + " loopback port, as braid get does with a daemon running",
      "--through-rpc").build();

  /** The command's model; its values are read after picocli has parsed the arguments into it. */
  CommandSpec spec() {
    return CommandModel.command("demo", this,
        "Download a generated file from a throttled server on loopback with 1 and with the default connections, and compare.")
        .addOption(size).addOption(rate).addOption(https).addOption(throughRpc);
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    long size = this.size.getValue();
    long rate = this.rate.getValue();
    PrintStream out = System.out;
    Path work = Files.createTempDirectory("braid-demo");
    Content content = Content.random(size, 20261130L);
    boolean tls = CommandModel.isSet(https);
    try (TestCertificate certificate = tls ? TestCertificate.generate() : null;
        TestServer server = tls ? TestServer.startTls(certificate) : TestServer.start();
        Braid braid = builder(work, certificate).build()) {
      server.serve("/demo.bin", content).etag("\"demo-1\"").rateLimitPerConnection(rate);
      String url = server.url("/demo.bin");
      out.printf(Locale.ROOT, "Serving %s at %s, limited to %s/s per connection.%n",
          Units.bytes(size), url, Units.bytes(rate));
      String expected = content.sha256Hex();
      DownloadResult one = fetch(braid, url, work.resolve("one.bin"), 1, expected, out);
      DownloadResult auto = fetch(braid, url, work.resolve("auto.bin"), 0, expected, out);
      double speedup = (double) one.elapsed().toNanos() / auto.elapsed().toNanos();
      out.printf(Locale.ROOT, "Speed-up with automatic connections: %.1fx. Both copies match SHA-256 %s.%n",
          speedup, expected);
      return CommandModel.isSet(throughRpc) ? DemoThroughRpc.fetch(builder(work, certificate), url,
          certificate == null ? null : certificate.pemFile(), work, expected, out) : ExitCode.OK;
    } catch (DownloadException e) {
      System.err.println("braid: demo failed: " + e.getMessage());
      return ExitCode.of(e);
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      System.err.println("braid: demo failed: " + cause.getMessage());
      return cause instanceof DownloadException de ? ExitCode.of(de) : ExitCode.INTERNAL;
    } finally {
      deleteTree(work);
    }
  }

  private static BraidBuilder builder(Path work, TestCertificate certificate) {
    BraidBuilder b = Braid.builder().stateDatabase(work.resolve("state.db"));
    return certificate == null ? b : b.caCertificates(certificate.pemFile());
  }

  private static DownloadResult fetch(Braid braid, String url, Path file, int connections, String expected, PrintStream out)
      throws DownloadException, IOException {
    DownloadRequestBuilder b = DownloadRequest.builder(url).file(file);
    if (connections > 0) {
      b.connections(connections);
    }
    Download d = braid.submit(b.build());
    DownloadResult r = d.result().join();
    boolean same = expected.equals(Content.sha256Hex(r.file()));
    double seconds = r.elapsed().toNanos() / 1e9;
    String how = connections > 0 ? connections + " connection" + (connections == 1 ? "" : "s")
        : "auto (" + d.connectionChanges().stream().map(c -> String.valueOf(c.to())).reduce((a, c) -> a + "->" + c).orElse("?") + ")";
    out.printf(Locale.ROOT, "  %-22s %6.2f s  %10s/s  %s%n", how, seconds, Units.bytes(r.length() / seconds),
        same ? "verified" : "MISMATCH");
    if (!same) {
      throw new IllegalStateException("the downloaded copy differs from the served file");
    }
    return r;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
