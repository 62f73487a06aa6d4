package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A redirect goes to http or https only: an https server that sends Braid to {@code gopher://} or
 * {@code foo://} on a plain port (where a plain HTTP server waits) is refused as a downgrade to
 * http is, with {@link RedirectRefusedException} (exit 4), and nothing is fetched there.
 */
class RedirectSchemeTest extends TlsHarness {
  @ParameterizedTest
  @ValueSource(strings = {"gopher", "foo"})
  void anHttpsRedirectToAnotherSchemeIsRefused(String scheme) throws Exception {
    Content content = Content.random(64 << 10, 36);
    try (TestServer tls = TestServer.startTls(certificate); TestServer plain = TestServer.start();
        Braid braid = braid(HttpVersion.HTTP_1_1)) {
      plain.serve("/f.bin", content);
      tls.redirect("/away", scheme + "://127.0.0.1:" + plain.port() + "/f.bin", 302);
      Path file = dir.resolve("f.bin");
      CompletionException e = assertThrows(CompletionException.class,
          () -> braid.submit(DownloadRequest.builder(tls.url("/away")).file(file).build()).result().join());
      assertTrue(e.getCause() instanceof RedirectRefusedException, e.getCause()::toString);
      assertTrue(e.getCause().getMessage().contains("from https to " + scheme), e.getCause().getMessage());
      assertTrue(e.getCause().getMessage().contains("only http and https"), e.getCause().getMessage());
      assertEquals(0, plain.requests().size(), "nothing was fetched over the other scheme");
      assertFalse(Files.exists(file));
    }
  }
}
