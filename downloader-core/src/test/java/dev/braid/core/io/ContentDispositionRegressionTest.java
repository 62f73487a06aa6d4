package dev.braid.core.io;

import java.net.URI;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** What the Content-Disposition fuzz target found in the sanitiser (branch h/names owns it), as explicit cases. */
class ContentDispositionRegressionTest {
  @Test
  @Disabled("crashes with StackOverflowError until branch h/names (the iterative name parser) merges; then enable"
      + " this and drop ContentDispositionFuzzTest.knownOverflowUntilHNames")
  void longQuotedNameGivesAName() {
    String header = "attachment; filename=\"" + "a".repeat(2000) + ".bin\"";
    ContentDispositionFuzzTest.assertSafe(FileNames.choose(header, URI.create("http://example.test/x")), header);
  }

  /**
   * Found by ContentDispositionFuzzTest#contentDisposition (a name cut at a blank), reduced; the
   * blank at every place around the byte limit, whatever the limit is (200 here, 250 on h/names).
   */
  @Test
  @Disabled("a cut name can end in a blank: the sanitiser strips blanks and dots before it cuts, not after (here"
      + " and, as of 16:10, on h/names too); enable with the fix and drop ContentDispositionFuzzTest.cutUntilHNames")
  void aNameCutAtABlankDoesNotEndInOne() {
    for (int n = 150; n <= 300; n++) {
      String header = "attachment; filename=\"" + "x".repeat(n) + " tail\"";
      ContentDispositionFuzzTest.assertSafe(FileNames.choose(header, URI.create("http://example.test/x")), header);
    }
  }

  /** Found by ContentDispositionFuzzTest#sanitize (a name cut at a dot), reduced; as above. */
  @Test
  @Disabled("a cut name can end in a dot: the sanitiser strips blanks and dots before it cuts, not after (here"
      + " and, as of 16:10, on h/names too); enable with the fix and drop ContentDispositionFuzzTest.cutUntilHNames")
  void aNameCutAtADotDoesNotEndInOne() {
    for (int n = 150; n <= 300; n++) {
      String raw = "x".repeat(n) + ".a-suffix-longer-than-an-extension";
      ContentDispositionFuzzTest.assertSafe(FileNames.sanitize(raw), raw);
    }
  }
}
