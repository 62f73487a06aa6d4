package dev.braid.core.internal.io;

import dev.braid.core.RemoteName;
import static dev.braid.core.FuzzContract.latin1;
import static dev.braid.core.FuzzContract.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.braid.core.FuzzContract;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The name Braid gives a download from a server's Content-Disposition (and from any raw name):
 * whatever the header holds, one plain file name that stays in the folder. The parser documents
 * no exception: it always answers a name.
 */
class ContentDispositionFuzzTest {
  private static final URI URL = URI.create("http://example.test/dir/from-path.bin");
  private static final Path FOLDER = Path.of("/downloads");
  @FuzzTest
  @DictionaryEntries({"attachment", "; ", "filename=", "filename*=", "UTF-8''", "ISO-8859-1'en'", "\"", "\\\"", "%2F",
      "%C3%A9", "%00", "..", "/", "\\", ".part", "con", "\u202e"})
  void contentDisposition(byte[] data) {
    String header = latin1(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> assertSafe(FileNames.choose(header, URL), header));
  }

  @FuzzTest
  @DictionaryEntries({"..", "/", "\\", ".part", "con", "NUL.txt", "\u202e", "\u200b", " .", "C:"})
  void sanitize(byte[] data) {
    String raw = utf8(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> assertSafe(RemoteName.sanitize(raw), raw));
  }

  /** One component of the folder: not hidden, no separator, control or format character, not too long. */
  static void assertSafe(String name, String from) {
    String why = from + " -> " + name;
    assertFalse(name.isEmpty(), why);
    assertEquals(FOLDER, FOLDER.resolve(name).normalize().getParent(), why);
    assertFalse(name.startsWith("."), why);
    assertFalse(name.endsWith(".") || name.endsWith(" "), why);
    assertTrue(name.codePoints().noneMatch(c -> c < 0x20 || c == 0x7f || c == '/' || c == '\\'
        || Character.getType(c) == Character.FORMAT), why);
    assertTrue(name.getBytes(StandardCharsets.UTF_8).length <= 255, why);
    assertFalse(name.toLowerCase(java.util.Locale.ROOT).endsWith(".part"), why);
  }
}
