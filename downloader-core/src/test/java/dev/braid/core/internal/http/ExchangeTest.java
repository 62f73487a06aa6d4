package dev.braid.core.internal.http;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExchangeTest {
  @Test
  void abortUnblocksAReaderStuckOnASilentServerAtOnce() throws Exception {
    try (TestServer server = TestServer.start();
        HttpTransport http = new HttpTransport(TestSettings.plain(Duration.ofSeconds(60)))) {
      server.serve("/f", Content.random(1 << 20, 1)).stallAfter(1000, Duration.ofSeconds(60), 1);
      Exchange ex = http.get(Protocol.HTTP_1_1, URI.create(server.url("/f")), Map.of(), OriginHeaders.NONE, new PhaseRecorder(),
          RequestProxy.ENGINE);
      InputStream in = ex.body();
      in.readNBytes(1000);
      long start = System.nanoTime();
      Thread aborter = new Thread(() -> {
        sleep(300);
        ex.abort();
      });
      aborter.start();
      assertThrows(IOException.class, () -> in.readNBytes(10_000));
      long took = System.nanoTime() - start;
      aborter.join();
      assertTrue(took < TimeUnit.SECONDS.toNanos(3), "abort took " + took / 1e6 + " ms");
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
