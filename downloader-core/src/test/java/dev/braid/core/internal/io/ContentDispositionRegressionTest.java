package dev.braid.core.internal.io;

import dev.braid.core.RemoteName;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** What the Content-Disposition fuzz target found in the name parser and the sanitiser, as explicit cases. */
class ContentDispositionRegressionTest {
  @Test
  void longQuotedNameGivesAName() {
    String header = "attachment; filename=\"" + "a".repeat(2000) + ".bin\"";
    ContentDispositionFuzzTest.assertSafe(FileNames.choose(header, URI.create("http://example.test/x")), header);
  }

  /**
   * Found by ContentDispositionFuzzTest#contentDisposition (a name cut at a blank), reduced; the
   * blank at every place around the byte limit.
   */
  @Test
  void aNameCutAtABlankDoesNotEndInOne() {
    for (int n = 150; n <= 300; n++) {
      String header = "attachment; filename=\"" + "x".repeat(n) + " tail\"";
      ContentDispositionFuzzTest.assertSafe(FileNames.choose(header, URI.create("http://example.test/x")), header);
    }
  }

  /** Found by ContentDispositionFuzzTest#sanitize (a name cut at a dot), reduced; as above. */
  @Test
  void aNameCutAtADotDoesNotEndInOne() {
    for (int n = 150; n <= 300; n++) {
      String raw = "x".repeat(n) + ".a-suffix-longer-than-an-extension";
      ContentDispositionFuzzTest.assertSafe(RemoteName.sanitize(raw), raw);
    }
  }
}
