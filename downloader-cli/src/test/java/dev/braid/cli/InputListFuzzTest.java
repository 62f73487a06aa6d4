package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.braid.core.DownloadRequest;
import dev.braid.core.InvalidRequestException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@code braid get -i} list, as a file of any bytes: either entries whose requests all build
 * (the list is checked whole before anything is downloaded) and whose files stay in their folder,
 * or an {@link InvalidRequestException}, which {@code braid get} reports with its line number
 * (exit 2). Any other throwable would end the command as an internal error.
 */
class InputListFuzzTest {
  private static final Path LIST;
  private static final Path FOLDER;
  static {
    try {
      Path dir = Files.createTempDirectory("braid-fuzz-list");
      LIST = dir.resolve("list.txt");
      FOLDER = dir.resolve("folder").toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest
  // no entry with a line break: libFuzzer's dictionary file, one entry a line, refuses it
  @DictionaryEntries({"http://example.test/a", "https://example.test/b.meta4", "  ", "out=", "dir=", "checksum=",
      "sha-256=", "mirror=", "connections=", "auto", "limit-rate=", "priority=", "#", "=", "..", "/", "\\"})
  void inputList(byte[] data) throws IOException {
    Files.write(LIST, data);
    String text = new String(data, java.nio.charset.StandardCharsets.UTF_8);
    InputList list;
    try {
      list = InputList.read(LIST, FOLDER, DownloadRequest::builder, Caller.thisProcess());
    } catch (InvalidRequestException e) {
      assertFalse(e.getMessage() == null || e.getMessage().isBlank());
      return;
    }
    assertFalse(list.entries().isEmpty() && list.metalinks().isEmpty(), "a list without an entry is refused");
    for (InputList.Entry e : list.entries()) {
      DownloadRequest r;
      try {
        r = e.request();
      } catch (InvalidRequestException ex) {
        throw new AssertionError("an entry checked when the list was read does not build: " + ex.getMessage(), ex);
      }
      if (r.file().isPresent()) {
        // out= is a plain name: the file is in the folder its path names, whatever dir= is
        Path file = r.file().get().toAbsolutePath();
        assertEquals(file.getParent().normalize(), file.normalize().getParent(), "out= leaves its folder: " + e.text);
      }
    }
    list.metalinks().forEach(m -> assertTrue(!m.source().isBlank(), m.toString()));
  }
}
