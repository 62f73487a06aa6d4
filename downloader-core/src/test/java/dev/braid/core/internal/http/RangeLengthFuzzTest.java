package dev.braid.core.internal.http;

import static dev.braid.core.FuzzContract.latin1;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.braid.core.FuzzContract;

/**
 * The length an HTTP/2 206 answer without Content-Length declares through its Content-Range: the
 * length of a range (one or more bytes), or -1 when the header gives none.
 */
class RangeLengthFuzzTest {
  @FuzzTest
  @DictionaryEntries({"bytes ", "*/", "-", "/", "*", "9223372036854775807", "-9223372036854775808"})
  void rangeLength(byte[] data) {
    String header = latin1(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> {
      long length = StreamResponse.rangeLength(header);
      assertTrue(length == -1 || length >= 1, header + " -> " + length);
    });
  }
}
