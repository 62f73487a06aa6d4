package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.state.QueueTable;
import dev.braid.state.Store;
import dev.braid.store.DownloadState;
import dev.braid.store.ProcessOwner;
import dev.braid.store.QueueEntry;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestCertificate;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus endpoint, scraped over HTTP like Prometheus does while a real download runs
 * against an HTTPS test server: the counters move, the timings are observed, and the endpoint
 * listens on loopback only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PrometheusEndpointTest {
  /** What a Prometheus configured for native histograms asks for: protobuf first, then text. */
  private static final String PROTOBUF_FIRST = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
      + "encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.1";

  @TempDir Path dir;

  @Test
  void downloadsAreCountedInTheStatesUsersSee() throws Exception {
    Path db = dir.resolve("state.db");
    try (Store store = Store.open(db)) {
      QueueTable q = store.queue();
      // left active by a process that is gone: shown as queued, waiting to be resumed
      String gone = ProcessOwner.self().replaceFirst(":\\d+:", ":999999999:");
      QueueEntry orphan = q.add(List.of("http://h/a"), null, dir, Map.of(), 0, gone);
      q.setState(orphan.id(), DownloadState.ACTIVE, null, null);
      QueueEntry paused = q.add(List.of("http://h/b"), null, dir, Map.of(), 0, null);
      q.setState(paused.id(), DownloadState.PAUSED, null, null);
      q.add(List.of("http://h/c"), null, dir, Map.of(), 0, null);
    }
    try (Braid braid = Braid.builder().stateDatabase(db).metricsEndpoint(0).build()) {
      String s = scrape(braid.metricsAddress().orElseThrow());
      assertEquals(2, value(s, "braid_downloads{state=\"queued\"}"), s);
      assertEquals(1, value(s, "braid_downloads{state=\"paused\"}"), s);
      assertEquals(0, value(s, "braid_downloads{state=\"active\"}"), s);
      assertEquals(0, value(s, "braid_downloads{state=\"completed\"}"), s);
      // the same as the handles say
      assertEquals(2, braid.downloads().stream().filter(d -> d.state() == DownloadState.QUEUED).count());
    }
  }

  @Test
  void aScrapeDuringAndAfterADownloadSeesItsCountersMove() throws Exception {
    Content c = Content.random(6 << 20, 41);
    try (TestCertificate cert = TestCertificate.generate(); TestServer server = TestServer.startTls(cert);
        Braid braid = Braid.builder().stateDatabase(dir.resolve("state.db")).caCertificates(cert.pemFile())
            .metricsEndpoint(0).build()) {
      // 3 connections at 2 MiB/s each: about a second to scrape in
      server.serve("/f", c).etag("\"m\"").rateLimitPerConnection(2 << 20);
      InetSocketAddress address = braid.metricsAddress().orElseThrow();
      Download d = braid.submit(DownloadRequest.builder(server.url("/f")).file(dir.resolve("f.bin")).connections(3).build());
      String during = Awaitility.await("a scrape with 1 MiB done").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
          .until(() -> {
            String now = scrape(address);
            assertTrue(value(now, "braid_downloaded_bytes_total") >= 1 << 20 || !d.result().isDone(),
                "the download ended before a scrape saw it run");
            return now;
          }, now -> value(now, "braid_downloaded_bytes_total") >= 1 << 20);
      assertEquals(1, value(during, "braid_downloads{state=\"active\"}"), during);
      assertTrue(value(during, "braid_connections_active") >= 1, during);
      assertTrue(value(during, "braid_downloaded_bytes_total") < c.size(), during);

      DownloadResult r = DownloadHarness.await(d);
      assertEquals(c.sha256Hex(), Content.sha256Hex(r.file()));
      String after = scrape(address);
      assertEquals(c.size(), value(after, "braid_downloaded_bytes_total"), after);
      assertEquals(1, value(after, "braid_downloads{state=\"completed\"}"), after);
      assertEquals(0, value(after, "braid_downloads{state=\"active\"}"), after);
      assertEquals(0, value(after, "braid_connections_active"), after);
      // what the server saw, counted by the endpoint
      int requests = server.requests().size();
      int connections = server.connectionsAccepted();
      assertEquals(connections, value(after, "braid_connections_opened_total"), after);
      assertEquals(requests - connections, value(after, "braid_requests_total{connection=\"reused\"}"), after);
      assertEquals(connections, value(after, "braid_requests_total{connection=\"new\"}"), after);
      assertEquals(server.tlsHandshakes(),
          value(after, "braid_tls_handshakes_total{resumed=\"false\"}") + value(after, "braid_tls_handshakes_total{resumed=\"true\"}"),
          after);
      assertEquals(server.tlsResumed(), value(after, "braid_tls_handshakes_total{resumed=\"true\"}"), after);
      assertEquals(requests, value(after, "braid_first_byte_duration_seconds_count"), after);
      assertEquals(connections, value(after, "braid_connect_duration_seconds_count"), after);
      assertEquals(server.tlsHandshakes(), value(after, "braid_tls_handshake_duration_seconds_count"), after);
      assertTrue(value(after, "braid_dns_duration_seconds_count") >= 1, after);
      assertTrue(value(after, "braid_first_byte_duration_seconds_sum") > 0, after);
      assertEquals(0, value(after, "braid_retries_total"), after);
    }
  }

  @Test
  void itListensOnLoopbackOnlyAndIsOffUnlessAskedFor() throws Exception {
    try (Braid braid = Braid.builder().stateDatabase(dir.resolve("a.db")).metricsEndpoint(0).build()) {
      InetSocketAddress address = braid.metricsAddress().orElseThrow();
      assertEquals("127.0.0.1", address.getAddress().getHostAddress());
      String text = scrape(address);
      assertTrue(text.contains("# TYPE braid_downloaded_bytes_total counter"), text);
      // the protobuf format is served too (the exporter fails such a scrape without its jar)
      HttpResponse<byte[]> proto = get(address, PROTOBUF_FIRST, HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(200, proto.statusCode());
      assertTrue(proto.headers().firstValue("Content-Type").orElse("").startsWith("application/vnd.google.protobuf"));
      // a wildcard bind would accept these too
      for (InetAddress other : otherAddresses()) {
        assertThrows(IOException.class, () -> {
          try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(other, address.getPort()), 2000);
          }
        }, "reachable on " + other);
      }
    }
    try (Braid braid = Braid.builder().stateDatabase(dir.resolve("b.db")).build()) {
      assertTrue(braid.metricsAddress().isEmpty());
    }
  }

  @Test
  void aPortInUseFailsTheBuildWithALocalError() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      LocalFileException e = assertThrows(LocalFileException.class,
          () -> Braid.builder().stateDatabase(dir.resolve("c.db")).metricsEndpoint(taken.getLocalPort()).build());
      assertTrue(e.getMessage().contains("127.0.0.1:" + taken.getLocalPort()), e.getMessage());
    }
  }

  /** The machine's other addresses, IPv6 loopback included when it has one. */
  private static List<InetAddress> otherAddresses() throws IOException {
    List<InetAddress> out = new java.util.ArrayList<>();
    for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress a : Collections.list(i.getInetAddresses())) {
        if (!(a instanceof Inet4Address && a.isLoopbackAddress()) && !a.isLinkLocalAddress()) {
          out.add(a);
        }
      }
    }
    return out;
  }

  /** A scrape in the text format, as Prometheus asks by default. */
  private static String scrape(InetSocketAddress address) throws Exception {
    HttpResponse<String> r = get(address, "text/plain;version=0.0.4;q=0.5,*/*;q=0.1", HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), r.headers().toString());
    return r.body();
  }

  private static <T> HttpResponse<T> get(InetSocketAddress address, String accept, HttpResponse.BodyHandler<T> body)
      throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + address.getPort() + "/metrics")).header("Accept", accept).build(), body);
  }

  /** The value of one sample line ({@code name{labels} value}), failing when it is absent. */
  private static double value(String exposition, String sample) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(sample) + " (\\S+)$").matcher(exposition);
    assertTrue(m.find(), "no sample " + sample);
    return Double.parseDouble(m.group(1));
  }
}
