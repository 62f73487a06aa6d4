package dev.braid.core;

import dev.braid.testserver.TestCertificate;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Tests against TLS servers on loopback: a test certificate per class and a {@code Braid} that trusts it. */
abstract class TlsHarness {
  static TestCertificate certificate;

  @TempDir Path dir;

  @BeforeAll
  static void makeCertificate() throws Exception {
    certificate = TestCertificate.generate();
  }

  @AfterAll
  static void dropCertificate() throws Exception {
    certificate.close();
  }

  /** A Braid on this test's folder that trusts the certificate and speaks {@code version}; short backoffs. */
  Braid braid(HttpVersion version) throws LocalFileException {
    return Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(certificate.pemFile())
        .httpVersion(version).firstBackoff(Duration.ofMillis(20)).build();
  }
}
