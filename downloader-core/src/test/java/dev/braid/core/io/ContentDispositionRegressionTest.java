package dev.braid.core.io;

import java.net.URI;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** The fuzz target's known crash, kept as an explicit case (issue 36, item 5). */
class ContentDispositionRegressionTest {
  @Test
  @Disabled("crashes with StackOverflowError until branch h/names (the iterative name parser) merges; then enable"
      + " this and drop ContentDispositionFuzzTest.knownOverflowUntilHNames")
  void longQuotedNameGivesAName() {
    String header = "attachment; filename=\"" + "a".repeat(2000) + ".bin\"";
    ContentDispositionFuzzTest.assertSafe(FileNames.choose(header, URI.create("http://example.test/x")), header);
  }
}
