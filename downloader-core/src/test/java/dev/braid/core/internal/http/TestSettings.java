package dev.braid.core.internal.http;

import dev.braid.core.HostResolver;
import dev.braid.core.time.Ticker;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Client settings for tests that drive the transport directly. */
final class TestSettings {
  private TestSettings() {}

  static HttpSettings plain(Duration readTimeout) {
    return new HttpSettings(Duration.ofSeconds(5), Duration.ofSeconds(5), readTimeout, readTimeout, 8, 5, "t", false, null,
        false, HostResolver.SYSTEM, Duration.ofSeconds(60), ProxyPlan.DIRECT, Duration.ofSeconds(30),
        Ticker.SYSTEM);
  }

  /** Like {@link #plain}, trusting the certificates in {@code pem} as well. */
  static HttpSettings trusting(Path pem) throws IOException {
    var context = CompletableFuture.completedFuture(LazyTlsStrategy.contextTrusting(LazyTlsStrategy.readCertificates(pem)));
    return new HttpSettings(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(10), 8, 5,
        "t", false, context, false, HostResolver.SYSTEM, Duration.ofSeconds(60), ProxyPlan.DIRECT, Duration.ofSeconds(30),
        Ticker.SYSTEM);
  }
}
