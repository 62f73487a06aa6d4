package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import dev.braid.testserver.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cookie a server sets on the way to a file goes back with every request for it, ranges
 * included, as a browser's would (download pages often set a session on their redirect).
 */
class CookieTest extends DownloadHarness {

  @Test
  void aCookieSetByTheRedirectGoesWithEveryRangeOfTheFile() throws Exception {
    Content c = Content.random(8 << 20, 7);
    server.redirect("/login", "/file.bin", 302, "session=abc123; Path=/");
    server.serve("/file.bin", c).etag("\"v1\"");
    DownloadResult r = get(request("/login", dir.resolve("f.bin")).connections(2).minSplitSize(256 * 1024));
    assertEquals(c.sha256Hex(), sha256(r.file()));
    List<RequestRecord> file = server.requests().stream().filter(q -> q.path().equals("/file.bin")).toList();
    assertTrue(file.size() >= 2, "ranges: " + file);
    assertTrue(file.stream().allMatch(q -> "session=abc123".equals(q.header("cookie"))), file.toString());
    assertEquals(null, server.requests().get(0).header("cookie"), "nothing was set before the redirect");
  }
}
