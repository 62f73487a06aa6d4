package dev.braid.core.internal.metalink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.braid.core.DownloadRequest;
import dev.braid.core.FuzzContract;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.Metalink;
import dev.braid.core.MetalinkException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * A Metalink document from anywhere (a file, a server): either a list of files whose names stay
 * in the folder and whose values are in range, each becoming a request or a {@link MetalinkException},
 * or a {@link MetalinkException}. What the callers do with a request that does not build
 * (an {@link InvalidRequestException}) is the same as for any bad URL.
 */
class MetalinkFuzzTest {
  /** A real, empty folder: a request checks the folders of its name on disk. */
  private static final Path FOLDER;

  static {
    try {
      FOLDER = Files.createTempDirectory("braid-fuzz-metalink").toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest
  @DictionaryEntries({"<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">", "</metalink>", "<file name=\"", "</file>",
      "<size>", "</size>", "<hash type=\"sha-256\">", "</hash>", "<pieces length=\"", "\" type=\"sha-1\">", "</pieces>",
      "<url priority=\"", "\" location=\"", "<url>", "</url>", "http://", "https://", "<metaurl mediatype=\"torrent\">",
      "<!DOCTYPE", "&#x1b;", "&amp;", "<?xml version=\"1.1\"?>", "xmlns:x=\"urn:other\"", "../", "/"})
  void metalink(byte[] document) {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    // what the parser prints reaches the user's terminal raw (the JDK's parser printed "[Fatal Error] ...")
    System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      FuzzContract.holds(MetalinkException.class, () -> {
        Metalink m = Metalink.parse(document);
        assertFalse(m.files().isEmpty());
        for (Metalink.File f : m.files()) {
          assertFile(f);
        }
      });
    } finally {
      System.setErr(stderr);
    }
    // fuzzing, Jazzer logs to the same stream (each class it instruments, new coverage counters), as "INFO: ..."
    String byParser = printed.toString(StandardCharsets.UTF_8).lines()
        .filter(line -> !line.startsWith("INFO: ")).collect(Collectors.joining("\n"));
    assertEquals("", byParser, "the parser prints nothing");
  }

  private static void assertFile(Metalink.File f) throws MetalinkException {
    String name = f.name();
    assertFalse(name.isBlank() || name.startsWith("/") || name.contains("\\"), name);
    assertTrue(name.chars().noneMatch(c -> c < 0x20 || c == 0x7f), name);
    for (String part : name.split("/", -1)) {
      assertFalse(part.isEmpty() || part.equals(".") || part.equals(".."), name);
    }
    assertTrue(f.size() >= -1, name + " size " + f.size());
    for (Metalink.Url u : f.urls()) {
      assertTrue(u.scheme().equals("http") || u.scheme().equals("https"), u.url());
      assertTrue(u.priority() >= 1 && u.priority() <= Metalink.LOWEST_PRIORITY, u.url());
    }
    f.pieceHashes().ifPresent(p -> assertTrue(f.size() < 0 || p.fits(f.size()), name));
    try {
      DownloadRequest r = f.request(FOLDER, Metalink.Order.DOCUMENT).build();
      Path target = r.file().orElseThrow().toAbsolutePath().normalize();
      assertTrue(target.startsWith(FOLDER) && !target.equals(FOLDER), name + " -> " + target);
      assertEquals(FOLDER.resolve(name).normalize(), target);
    } catch (MetalinkException e) {
      assertTrue(f.urls().isEmpty(), "only a file without a URL has no request: " + e.getMessage());
    } catch (InvalidRequestException e) {
      assertFalse(e.getMessage() == null || e.getMessage().isBlank());
    }
  }
}
