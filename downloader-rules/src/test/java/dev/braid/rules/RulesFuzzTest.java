package dev.braid.rules;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.HostRule;
import dev.braid.core.rules.HostSettings;
import dev.braid.core.rules.Rules;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A rules file of any bytes: either rules whose settings apply to a request, or a
 * {@link RulesFileException} naming the line and key (exit 2 in the CLI, refused at a daemon's
 * start). Anything else thrown would end the command as an internal error.
 */
class RulesFuzzTest {
  private static final Path FILE = Path.of("rules.toml");
  private static final Path HOME = Path.of("/home/fuzz");

  @FuzzTest
  // no entry with a line break: libFuzzer's dictionary file, one entry a line, refuses it
  @DictionaryEntries({"[hosts.\"", "\"]", "[categories.", "]", "connections = ", "max-connections = ",
      "max-connections-per-host = ", "rate-limit = \"", "user-agent = \"", "proxy = \"", "headers = {", "folder = \"",
      "extensions = [\"", "hosts = [\"", "*.", "~/", "9223372036854775808", "http://", "socks5://"})
  void rulesFile(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    Rules rules;
    try {
      rules = RulesReader.parse(text, FILE, HOME);
    } catch (RulesFileException e) {
      assertFalse(e.getMessage() == null || e.getMessage().isBlank());
      return;
    }
    for (HostRule r : rules.hostRules()) {
      String host = r.pattern().toString().replace("*.", "a.");
      apply(rules.forUrl("http://" + host + "/file.mp4"), text);
    }
    rules.categories().forEach(c -> assertTrue(c.folder().isAbsolute(), text));
    rules.categoryFor("http://example.test/file.mp4");
  }

  /** The settings go onto a request as the CLI and the daemon put them: it builds, or is refused as a request. */
  private static void apply(HostSettings s, String text) {
    s.rateLimit().ifPresent(n -> assertTrue(n >= 0, text));
    DownloadRequestBuilder b = DownloadRequest.builder("http://example.test/file.mp4");
    s.applyTo(b);
    try {
      b.build();
    } catch (InvalidRequestException e) {
      assertFalse(e.getMessage() == null || e.getMessage().isBlank());
    }
  }
}
