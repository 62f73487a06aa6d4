package dev.braid.core.internal.fetch;

import static dev.braid.core.FuzzContract.latin1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.braid.core.FuzzContract;
import java.time.Duration;

/**
 * The response headers the fetch path reads from a server: Content-Range and Retry-After. Each
 * parser answers null for what it cannot use (the caller then treats the answer as a protocol
 * failure or ignores the header); what it returns is within bounds.
 */
class HeaderFuzzTest {
  @FuzzTest
  @DictionaryEntries({"bytes ", "*/", "-", "/", "*", "9223372036854775807", "18446744073709551616"})
  void contentRange(byte[] data) {
    String header = latin1(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> {
      ContentRange r = ContentRange.parse(header);
      if (r == null) {
        return;
      }
      if (r.first() < 0) {
        // bytes */total: nothing satisfiable, only the total
        assertEquals(-1, r.first());
        assertEquals(-1, r.last());
        assertTrue(r.total() >= 0, header);
      } else {
        assertTrue(r.first() <= r.last(), header);
        assertTrue(r.total() == -1 || r.last() < r.total(), header);
      }
      String total = r.total() < 0 ? "*" : Long.toString(r.total());
      String again = r.first() < 0 ? "bytes */" + total : "bytes " + r.first() + "-" + r.last() + "/" + total;
      assertEquals(r, ContentRange.parse(again), "what was read reads the same when written canonically");
    });
  }

  @FuzzTest
  @DictionaryEntries({"Sun, 06 Nov 1994 08:49:37 GMT", "Mon, ", " GMT", "-", "9223372036854775807"})
  void retryAfter(byte[] data) {
    String header = latin1(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> {
      Duration d = StatusCheck.retryAfter(header);
      if (d != null) {
        assertTrue(!d.isNegative() && d.compareTo(Duration.ofMinutes(2)) <= 0, header + " -> " + d);
      }
    });
  }
}
