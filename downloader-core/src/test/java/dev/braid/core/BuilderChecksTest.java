package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Issue 20 item 8: every setter of both builders refuses a bad argument at once, naming it. */
class BuilderChecksTest {

  private static void refused(Class<? extends RuntimeException> type, String name, Executable setter) {
    RuntimeException e = assertThrows(type, setter);
    assertTrue(e.getMessage() != null && e.getMessage().contains(name), "message should name " + name + ": " + e.getMessage());
  }

  private static void braid(Class<? extends RuntimeException> type, String name, Consumer<BraidBuilder> setter) {
    refused(type, name, () -> setter.accept(Braid.builder()));
  }

  private static void request(Class<? extends RuntimeException> type, String name, Consumer<DownloadRequestBuilder> setter) {
    refused(type, name, () -> setter.accept(DownloadRequest.builder("http://127.0.0.1/f")));
  }

  @Test
  void braidBuilderRefusesBadValuesAtTheSetter() {
    Class<IllegalArgumentException> iae = IllegalArgumentException.class;
    Class<NullPointerException> npe = NullPointerException.class;
    braid(iae, "bytes", b -> b.bufferSize(0));
    braid(iae, "bytes", b -> b.bufferSize(Integer.MAX_VALUE));
    braid(npe, "timeout", b -> b.connectTimeout(null));
    braid(iae, "timeout", b -> b.connectTimeout(Duration.ZERO));
    braid(npe, "timeout", b -> b.readTimeout(null));
    braid(iae, "timeout", b -> b.readTimeout(Duration.ofSeconds(-1)));
    braid(npe, "timeout", b -> b.tlsHandshakeTimeout(null));
    braid(npe, "timeout", b -> b.firstByteTimeout(null));
    braid(npe, "timeout", b -> b.idleConnectionTimeout(null));
    braid(iae, "timeout", b -> b.idleConnectionTimeout(Duration.ZERO));
    braid(iae, "deadline", b -> b.deadline(Duration.ZERO));
    braid(npe, "ttl", b -> b.dnsCacheTtl(null));
    braid(npe, "wait", b -> b.firstBackoff(null));
    braid(iae, "wait", b -> b.firstBackoff(Duration.ofMillis(-5)));
    braid(npe, "interval", b -> b.checkpointInterval(null));
    braid(iae, "interval", b -> b.checkpointInterval(Duration.ZERO));
    braid(iae, "n", b -> b.maxRetries(-1));
    braid(iae, "n", b -> b.maxActiveDownloads(0));
    braid(iae, "n", b -> b.maxConnectionsTotal(0));
    braid(iae, "n", b -> b.maxConnectionsPerHost(0));
    braid(iae, "bytesPerSecond", b -> b.rateLimit(-1));
    braid(iae, "bytesPerSecond", b -> b.lowestSpeed(-1));
    braid(npe, "file", b -> b.stateDatabase(null));
    braid(npe, "location", b -> b.stateLocation(null));
    braid(iae, "location", b -> b.stateLocation(" "));
    braid(npe, "store", b -> b.store(null));
    braid(npe, "userAgent", b -> b.userAgent(null));
    braid(iae, "userAgent", b -> b.userAgent("x\r\nX-Injected: 1"));
    braid(npe, "version", b -> b.httpVersion(null));
    braid(npe, "resolver", b -> b.hostResolver(null));
    braid(npe, "environment", b -> b.proxyFromEnvironment(null));
    braid(iae, "port", b -> b.metricsEndpoint(70000));
    braid(iae, "address", b -> b.metricsEndpoint(java.net.InetSocketAddress.createUnresolved("example.invalid", 1)));
    // what null means for these is documented: none, the default
    Braid.builder().deadline(null).proxy(null, null).caCertificates(null).downloadDirectory(null).metricsEndpoint(null);
    Braid.builder().maxRetries(0).bufferSize(Braid.MIN_BUFFER_SIZE).bufferSize(Braid.MAX_BUFFER_SIZE);
  }

  @Test
  void requestBuilderRefusesBadValuesAtTheSetter() throws InvalidRequestException {
    Class<IllegalArgumentException> iae = IllegalArgumentException.class;
    Class<NullPointerException> npe = NullPointerException.class;
    refused(npe, "url", () -> DownloadRequest.builder(null));
    request(iae, "connections", b -> b.connections(0));
    request(iae, "connections", b -> b.connections(DownloadRequest.MAX_CONNECTIONS + 1));
    request(iae, "max", b -> b.maxConnections(0));
    request(iae, "max", b -> b.maxConnections(DownloadRequest.MAX_CONNECTIONS + 1));
    request(iae, "bytes", b -> b.minSplitSize(0));
    request(iae, "bytesPerSecond", b -> b.rateLimit(-1));
    request(npe, "urls", b -> b.mirrors(null));
    request(npe, "mirror", b -> b.mirrors(Arrays.asList("http://127.0.0.1/m", null)));
    request(npe, "name", b -> b.header(null, "v"));
    request(npe, "value", b -> b.header("X-A", null));
    request(npe, "user", b -> b.basicAuth(null, "p"));
    request(npe, "password", b -> b.basicAuth("u", null));
    request(iae, "user", b -> b.basicAuth("u:v", "p"));
    request(npe, "token", b -> b.bearerToken(null));
    request(iae, "proxy", b -> b.proxy("ftp://127.0.0.1:21"));
    DownloadRequest r = DownloadRequest.builder("http://127.0.0.1/f").connections(1).maxConnections(DownloadRequest.MAX_CONNECTIONS)
        .file(null).directory(null).checksum(null).mirrors(List.of()).build();
    assertEquals(1, r.connections().getAsInt());
  }

  @Test
  void theDefaultsAreTheOnesThePublicConstantsName() throws Exception {
    DownloadRequest r = DownloadRequest.builder("http://127.0.0.1/f").build();
    assertEquals(DownloadRequest.DEFAULT_MAX_CONNECTIONS, r.maxConnections());
    assertEquals(DownloadRequest.DEFAULT_MIN_SPLIT, r.minSplitSize());
  }
}
