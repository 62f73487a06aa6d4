package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.internal.metrics.PrometheusClient;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus client is an optional dependency: a job without it on the class path runs Braid,
 * and asking it for the endpoint is a clear error, not a NoClassDefFoundError. Runs in a JVM whose
 * class path is this one's without the io.prometheus jars.
 */
class WithoutPrometheusTest {
  @TempDir Path dir;

  /** The child's main: opens and closes a Braid, then asks for the endpoint. */
  public static void main(String[] args) throws Exception {
    try (Braid braid = Braid.builder().stateDatabase(Path.of(args[0])).build()) {
      System.out.println("started without metrics: " + braid.metricsAddress().isEmpty());
    }
    try {
      Braid.builder().metricsEndpoint(0);
      System.out.println("accepted");
    } catch (IllegalStateException e) {
      System.out.println("refused: " + e.getMessage());
    }
  }

  @Test
  void braidRunsWithoutTheClientAndRefusesTheEndpointClearly() throws Exception {
    assertTrue(PrometheusClient.present(), "the tests themselves have the client");
    String classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.contains("prometheus")).collect(Collectors.joining(File.pathSeparator));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", classPath, WithoutPrometheusTest.class.getName(), dir.resolve("state.db").toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    assertEquals("started without metrics: true\nrefused: " + PrometheusClient.MISSING + "\n", out);
  }
}
