package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.braid.testserver.Content;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Kept-alive connections between downloads: one the server closed is never used, and idle ones are closed. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleConnectionsTest extends DownloadHarness {

  @Test
  void aConnectionTheServerClosedWhileIdleIsNotReused() throws Exception {
    // a server that closes keep-alive connections after 200 ms: the pooled one is dead when the
    // next download comes 800 ms later, though the client has not read the close yet. The time is
    // the subject: httpclient checks a connection idle past its 500 ms on its own clock, which no
    // ticker moves
    server.idleTimeout(Duration.ofMillis(200));
    Content a = Content.random(64 << 10, 1);
    Content b = Content.random(64 << 10, 2);
    server.serve("/a", a).etag("\"a\"");
    server.serve("/b", b).etag("\"b\"");
    get(request("/a", dir.resolve("a")).connections(1));
    Thread.sleep(800);
    DownloadResult r = get(request("/b", dir.resolve("b")).connections(1));
    assertEquals(sha256(b), sha256(r.file()));
    assertEquals(0, r.metrics().retries(), "the dead connection was checked before use: " + r.metrics());
    assertEquals(1, r.metrics().connectionsOpened(), r.metrics().toString());
    assertEquals(2, server.connectionsAccepted());
  }

  @Test
  void aConnectionIdleLongerThanTheTimeoutIsClosed() throws Exception {
    braid.close();
    braid = Braid.builder().stateDatabase(dir.resolve("state.db")).idleConnectionTimeout(Duration.ofMillis(300)).build();
    Content c = Content.random(64 << 10, 3);
    server.serve("/c", c).etag("\"c\"");
    get(request("/c", dir.resolve("c")).connections(1));
    assertEquals(1, server.openConnections(), "kept alive after the download");
    Awaitility.await("closed by the client after 300 ms idle (the server would wait 30 s)").atMost(Duration.ofSeconds(5))
        .until(() -> server.openConnections() == 0);
  }
}
