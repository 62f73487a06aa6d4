package dev.braid.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.Braid;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --metrics-port=N}: the app's Braid serves Prometheus metrics on loopback; without it, nothing listens. */
class MetricsParameterTest {
  @TempDir Path dir;

  @Test
  void thePortParameterTurnsTheEndpointOnThroughTheBuilder() throws Exception {
    try (Braid braid = BraidApp.metrics("0").apply(Braid.builder().stateDatabase(dir.resolve("a.db"))).build()) {
      var address = braid.metricsAddress().orElseThrow();
      assertEquals("127.0.0.1", address.getAddress().getHostAddress());
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + address.getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
      assertTrue(r.body().contains("braid_downloads{state=\"queued\"} 0.0"), r.body());
    }
    try (Braid braid = BraidApp.metrics(null).apply(Braid.builder().stateDatabase(dir.resolve("b.db"))).build()) {
      assertTrue(braid.metricsAddress().isEmpty());
    }
    assertThrows(IllegalArgumentException.class, () -> BraidApp.metrics("ninety"));
  }
}
