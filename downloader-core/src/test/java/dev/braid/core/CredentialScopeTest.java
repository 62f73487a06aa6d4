package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.state.Store;
import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import dev.braid.testserver.TestServer;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Custom headers, cookies and credentials go only to the origin they were given for: a redirect
 * to another host, and the ranged requests that follow it there, carry none of them; they are
 * not written to the state database and not part of error messages.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CredentialScopeTest {
  private static final String TOKEN = "tok-5ecret-bearer";

  @TempDir Path dir;
  private TestServer origin;
  private TestServer cdn;
  private Braid braid;
  private final Content content = Content.random(6 << 20, 3);

  @BeforeEach
  void start() throws Exception {
    origin = TestServer.start();
    cdn = TestServer.start();
    // two names for loopback: two hosts as far as the client can tell
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).userAgent("braid-test/1")
        .hostResolver(h -> new InetAddress[] {InetAddress.getByAddress(h, new byte[] {127, 0, 0, 1})}).build();
    cdn.serve("/f", content).etag("\"c\"");
    origin.serve("/f", content).etag("\"c\"");
    origin.redirect("/away", "http://cdn.test:" + cdn.port() + "/f", 302);
    origin.redirect("/here", "/f", 302);
  }

  @AfterEach
  void stop() {
    braid.close();
    origin.close();
    cdn.close();
  }

  @Test
  void aRedirectToAnotherHostCarriesNoCredentialsCookiesOrCustomHeaders() throws Exception {
    DownloadResult r = get(DownloadRequest.builder("http://origin.test:" + origin.port() + "/away")
        .bearerToken(TOKEN).header("Cookie", "session=" + TOKEN).header("X-Api-Key", TOKEN).connections(4));
    assertEquals(content.size(), r.length());
    List<RequestRecord> first = origin.requests();
    assertEquals(1, first.size());
    assertEquals("Bearer " + TOKEN, first.get(0).header("Authorization"));
    assertEquals("session=" + TOKEN, first.get(0).header("Cookie"));
    assertEquals(TOKEN, first.get(0).header("X-Api-Key"));
    List<RequestRecord> elsewhere = cdn.requests();
    assertTrue(elsewhere.size() >= 2, "the probe and the ranges went to the final host: " + elsewhere.size());
    for (RequestRecord rec : elsewhere) {
      assertNull(rec.header("Authorization"), rec.toString());
      assertNull(rec.header("Cookie"), rec.toString());
      assertNull(rec.header("X-Api-Key"), rec.toString());
      assertEquals("braid-test/1", rec.header("User-Agent"));
      assertFalse(rec.headers().toString().contains(TOKEN));
    }
    assertNoSecretStored(TOKEN);
  }

  @Test
  void aRedirectWithinTheOriginKeepsThemOnEveryRequest() throws Exception {
    get(DownloadRequest.builder("http://origin.test:" + origin.port() + "/here").basicAuth("alice", "pa55word")
        .connections(4));
    String basic = "Basic " + Base64.getEncoder().encodeToString("alice:pa55word".getBytes(StandardCharsets.UTF_8));
    List<RequestRecord> all = origin.requests();
    assertTrue(all.size() >= 3, "the redirect, the probe and ranges");
    for (RequestRecord rec : all) {
      assertEquals(basic, rec.header("Authorization"), rec.toString());
    }
    assertEquals(0, cdn.requests().size());
  }

  @Test
  void aPasswordInTheUrlBecomesBasicAuthAndIsNeitherStoredNorPrinted() throws Exception {
    DownloadRequest request = DownloadRequest.builder("http://alice:pa55word@origin.test:" + origin.port() + "/f")
        .file(dir.resolve("f.bin")).build();
    assertFalse(request.uri().toString().contains("pa55word"), request.uri().toString());
    assertFalse(request.toString().contains("pa55word"));
    DownloadHarness.await(braid.submit(request));
    assertEquals("Basic " + Base64.getEncoder().encodeToString("alice:pa55word".getBytes(StandardCharsets.UTF_8)),
        origin.requests().get(0).header("Authorization"));
    origin.respond("/gone", 404);
    HttpStatusException e = assertThrows(HttpStatusException.class, () -> DownloadHarness.await(braid.submit(
        DownloadRequest.builder("http://alice:pa55word@origin.test:" + origin.port() + "/gone").bearerToken(TOKEN)
            .file(dir.resolve("g.bin")).build())));
    assertFalse(e.getMessage().contains("pa55word") || e.getMessage().contains(TOKEN), e.getMessage());
    InvalidRequestException bad = assertThrows(InvalidRequestException.class,
        () -> DownloadRequest.builder("ftp://alice:pa55word@origin.test/f").build());
    assertFalse(bad.getMessage().contains("pa55word"), bad.getMessage());
    assertThrows(InvalidRequestException.class,
        () -> DownloadRequest.builder("http://origin.test/f").header("X-A", "v\r\nX-Injected: 1").build());
    assertNoSecretStored("pa55word");
    try (Store store = Store.open(dir.resolve("state.db"))) {
      String stored = store.findByTarget(dir.resolve("f.bin")).orElseThrow().url();
      assertEquals("http://origin.test:" + origin.port() + "/f", stored);
    }
  }

  private DownloadResult get(DownloadRequestBuilder b) throws Exception {
    return DownloadHarness.await(braid.submit(b.file(dir.resolve("f.bin")).overwrite(true).build()));
  }

  /** Not in any file of the store (database, WAL, shared memory). */
  private void assertNoSecretStored(String secret) throws Exception {
    braid.close();
    byte[] needle = secret.getBytes(StandardCharsets.UTF_8);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("state.db")).toList()) {
        String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        assertFalse(bytes.contains(new String(needle, StandardCharsets.ISO_8859_1)), f + " holds the secret");
      }
    }
  }
}
