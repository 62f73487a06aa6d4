package dev.braid.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.braid.testserver.TestCertificate;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code braid} command against Debian's Apache over TLS, on a virtual host with
 * {@code Protocols h2 http/1.1} (mod_http2): HTTP/1.1 by default, {@code --http2}, and
 * {@code --http-auto}, trusting the test's certificate with {@code --ca-cert}. The freshly modified
 * 64 MiB file is issue 20's memory case: a 200 on every stream, each queueing its body.
 */
class ApacheTlsTest {
  private static final long MIB = 1L << 20;
  private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);

  private static TestCertificate certificate;
  private static ApacheServer apache;

  @TempDir Path work;
  private BraidCommand braid;

  @BeforeAll
  static void startApache() throws IOException, InterruptedException {
    certificate = TestCertificate.generate();
    apache = ApacheServer.start(certificate);
  }

  @AfterAll
  static void stopApache() throws IOException, InterruptedException {
    if (apache != null) {
      apache.close();
    }
    if (certificate != null) {
      certificate.close();
    }
  }

  @BeforeEach
  void newHome() {
    braid = new BraidCommand(work.resolve("home"));
  }

  private String caCert() {
    return certificate.pemFile().toString();
  }

  @Test
  void httpsWithDefaultFlags() throws Exception {
    String sha = Documents.writeRandom(apache.docs().resolve("tls.bin"), 32 * MIB, 11);
    Path target = work.resolve("tls.bin");
    braid.run(RUN_TIMEOUT, work, "get", apache.https("tls.bin"), "-o", target.toString(), "--ca-cert", caCert())
        .assertDownloaded(target, sha);
  }

  @Test
  void http2() throws Exception {
    String sha = Documents.writeRandom(apache.docs().resolve("h2.bin"), 64 * MIB, 12);
    Path target = work.resolve("h2.bin");
    braid.run(RUN_TIMEOUT, work, "get", apache.https("h2.bin"), "-o", target.toString(), "--http2", "--ca-cert", caCert())
        .assertDownloaded(target, sha);
    AccessLog log = apache.accessLog();
    assertTrue(log.forPath("/h2.bin").stream().allMatch(e -> "HTTP/2.0".equals(e.protocol())),
        () -> "--http2 should fetch every range over HTTP/2\n" + log.describe("/h2.bin"));
  }

  @Test
  void http2FreshlyModified() throws Exception {
    FreshDownload.Outcome o = FreshDownload.run(apache, braid, work, "h2", apache::https, 64 * MIB, RUN_TIMEOUT,
        "--http2", "--ca-cert", caCert());
    o.result().assertDownloaded(o.file(), o.sha256());
    assumeTrue(o.windowHit(), () -> "no attempt reached Apache within a second of the file's change:\n" + o.requests());
  }

  @Test
  void http2FreshlyModifiedOnSixteenStreams() throws Exception {
    // 16 streams each answered 200 with the whole file: memory must be bounded in total, not per stream
    FreshDownload.Outcome o = FreshDownload.run(apache, braid, work, "h2c16", apache::https, 64 * MIB, RUN_TIMEOUT,
        "--http2", "-c", "16", "--ca-cert", caCert());
    o.result().assertDownloaded(o.file(), o.sha256());
    assumeTrue(o.windowHit(), () -> "no attempt reached Apache within a second of the file's change:\n" + o.requests());
  }

  @Test
  void httpAutoTriesHttp2OnTheSecondLargeDownload() throws Exception {
    // the first large download to a host measures HTTP/1.1; the next one is the HTTP/2 trial
    String sha = Documents.writeRandom(apache.docs().resolve("auto-first.bin"), 40 * MIB, 13);
    Path first = work.resolve("auto-first.bin");
    braid.run(RUN_TIMEOUT, work, "get", apache.https("auto-first.bin"), "-o", first.toString(), "--http-auto",
        "--ca-cert", caCert()).assertDownloaded(first, sha);

    FreshDownload.Outcome o = FreshDownload.run(apache, braid, work, "auto", apache::https, 64 * MIB, RUN_TIMEOUT,
        "--http-auto", "--ca-cert", caCert());
    o.result().assertDownloaded(o.file(), o.sha256());
    assertTrue(apache.accessLog().forPath(o.urlPath()).stream().anyMatch(e -> "HTTP/2.0".equals(e.protocol())),
        () -> "--http-auto should have tried HTTP/2 on the second large download\n" + o.requests());
    assumeTrue(o.windowHit(), () -> "no attempt reached Apache within a second of the file's change:\n" + o.requests());
  }
}
