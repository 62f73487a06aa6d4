package dev.braid.cli.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadRequest;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the tools accept as arguments, and what they refuse with a message naming the argument. */
class ToolArgumentsTest {
  private static final Path HOME = Path.of("/srv/downloads").toAbsolutePath();
  private static final String URL = "http://127.0.0.1:8080/a.bin";

  private static ToolArguments args(Object... pairs) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], pairs[i + 1]);
    }
    return new ToolArguments(m);
  }

  private static String refusal(AddRequests adds, ToolArguments a) {
    return assertThrows(ToolArgumentException.class, () -> adds.request(a)).getMessage();
  }

  @Test
  void anIdIsAPositiveWholeNumber() throws Exception {
    assertEquals(7, args("id", 7).id());
    assertEquals(7, args("id", 7L).id());
    assertEquals(7, args("id", 7.0).id(), "JSON has one number type: 7.0 is 7");
    assertTrue(assertThrows(ToolArgumentException.class, () -> args("id", "7").id()).getMessage().startsWith("id must be a whole number"));
    assertTrue(assertThrows(ToolArgumentException.class, () -> args("id", 1.5).id()).getMessage().contains("whole number"));
    assertTrue(assertThrows(ToolArgumentException.class, () -> args("id", 0).id()).getMessage().contains("1 or more"));
    assertTrue(assertThrows(ToolArgumentException.class, () -> args().id()).getMessage().startsWith("id is required"));
  }

  @Test
  void numbersAndFlagsAreCheckedAgainstTheirRange() throws Exception {
    assertEquals(30, args("timeout_seconds", 30).optionalInt("timeout_seconds", 1, 50).orElseThrow());
    assertTrue(args().optionalInt("timeout_seconds", 1, 50).isEmpty());
    assertEquals("timeout_seconds must be from 1 to 50, not 51",
        assertThrows(ToolArgumentException.class, () -> args("timeout_seconds", 51).optionalInt("timeout_seconds", 1, 50)).getMessage());
    assertTrue(args("delete_file", true).flag("delete_file"));
    assertFalse(args().flag("delete_file"));
    assertThrows(ToolArgumentException.class, () -> args("delete_file", "yes").flag("delete_file"));
    assertEquals("url must not be empty", assertThrows(ToolArgumentException.class, () -> args("url", " ").text("url")).getMessage());
  }

  @Test
  void anAddNamesItsFolderAbsolutelyAndItsFileByNameOnly() throws Exception {
    AddRequests withDefault = new AddRequests(HOME);
    AddRequests engineChooses = new AddRequests(null);

    DownloadRequest plain = engineChooses.request(args("url", URL));
    assertFalse(plain.directoryGiven(), "no folder: the engine's side chooses (its rules' category, its folder)");
    assertEquals(HOME, withDefault.request(args("url", URL)).directory());
    Path other = HOME.resolve("other");
    assertEquals(other, engineChooses.request(args("url", URL, "folder", HOME + "/x/../other")).directory());
    assertEquals(Optional.of(HOME.resolve("b.bin")), withDefault.request(args("url", URL, "file_name", "b.bin")).file());

    assertTrue(refusal(withDefault, args("folder", HOME.toString())).startsWith("url is required"));
    assertTrue(refusal(withDefault, args("url", URL, "folder", "relative/dir")).contains("must be an absolute path"));
    assertTrue(refusal(withDefault, args("url", URL, "file_name", "../up.bin")).contains("not a path"));
    assertTrue(refusal(withDefault, args("url", URL, "file_name", "..")).contains("not a path"));
    assertTrue(refusal(engineChooses, args("url", URL, "file_name", "b.bin")).contains("needs a folder"));
    assertFalse(refusal(withDefault, args("url", "ftp://127.0.0.1/a.bin")).isEmpty());
  }

  @Test
  void anAddCarriesItsChecksumAndConnections() throws Exception {
    AddRequests adds = new AddRequests(HOME);
    String hex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    DownloadRequest r = adds.request(args("url", URL, "checksum", "sha-256=" + hex, "connections", 8));
    assertEquals("sha-256=" + hex, r.checksum().orElseThrow().toString());
    assertEquals(8, r.connections().orElseThrow());
    assertTrue(refusal(adds, args("url", URL, "checksum", "sha-256=abc")).contains("hexadecimal"));
    assertTrue(refusal(adds, args("url", URL, "connections", 0)).startsWith("connections must be from 1 to " + DownloadRequest.MAX_CONNECTIONS));
  }
}
