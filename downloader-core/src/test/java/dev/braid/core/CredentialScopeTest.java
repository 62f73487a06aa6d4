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
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Custom headers, cookies and credentials go only to the origin they were given for: a redirect
 * to another host, and the ranged requests that follow it there, carry none of them; the state
 * database keeps none of them once the download completed, and no error message carries them.
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

  /**
   * Not in any table of the store once the downloads completed: the queue keeps a download's
   * headers (in their own table) only until it completes, and never in its entries or records.
   */
  private void assertNoSecretStored(String secret) throws Exception {
    braid.close();
    Store.loadDriver();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("state.db"));
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      assertTrue(tables.contains("queue_headers"), tables.toString());
      for (String table : tables) {
        try (ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
          while (rs.next()) {
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
              String v = rs.getString(i);
              assertFalse(v != null && v.contains(secret), table + " holds the secret");
            }
          }
        }
      }
    }
  }
}
