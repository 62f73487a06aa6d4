package dev.braid.core;

import static dev.braid.core.FuzzContract.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The values a person or a client gives as text, read by the core for every face (CLI options,
 * RPC options, the rules file, the desktop app): sizes and rates, speed schedules, run windows,
 * checksums, piece hashes, gids and a Metalink file selection. Each reads a well-formed value or
 * throws its documented exception, which the faces turn into a clear error.
 */
class TextOptionsFuzzTest {
  private static final Metalink THREE_FILES = new Metalink(List.of(file("a"), file("b"), file("c")), List.of());

  @FuzzTest
  @DictionaryEntries({"K", "M", "G", "T", "iB", "B", ".", "+", "-", "9223372036854775807", "8E"})
  void byteSize(byte[] data) {
    String text = utf8(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> {
      long bytes = ByteSize.parse(text);
      assertTrue(bytes >= 0, text);
      assertEquals(bytes, ByteSize.parse(ByteSize.format(bytes)), "format reads back: " + text);
    });
  }

  @FuzzTest
  @DictionaryEntries({"Mon", "Fri", "Sat-Sun", "-", ":", "=", ",", "00:00", "23:59", "24:00", "2M"})
  void speedSchedule(byte[] data) {
    String text = utf8(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> {
      SpeedSchedule s = SpeedSchedule.parse(text);
      s.entries().forEach(e -> assertTrue(e.bytesPerSecond() >= 0, text));
    });
  }

  @FuzzTest
  @DictionaryEntries({"Mon", "Fri", "Sat-Sun", "-", ":", ",", "00:00", "23:59", "24:00", " "})
  void runWindows(byte[] data) {
    String text = utf8(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> {
      List<RunWindow> windows = RunWindow.parseList(text);
      assertEquals(windows, RunWindow.parseList(RunWindow.toText(windows)), "toText reads back: " + text);
    });
  }

  @FuzzTest
  @DictionaryEntries({"sha-256=", "sha-1=", "md5=", "sha-512=", "blake3=", "sha3-256=", "="})
  void checksum(byte[] data) {
    String text = utf8(data);
    FuzzContract.holds(InvalidRequestException.class, () -> {
      Checksum c = Checksum.parse(text);
      assertTrue(Checksum.ALGORITHMS.contains(c.algorithm()), text);
      assertTrue(c.hex().matches("[0-9a-f]+"), text);
    });
  }

  @FuzzTest
  @DictionaryEntries({"sha-1", "sha-256", ":", ",", "1048576", "a9993e364706816aba3e25717850c26c9cd0d89d"})
  void pieceHashes(byte[] data) {
    String text = utf8(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> {
      PieceHashes p = PieceHashes.parse(text);
      assertTrue(PieceHashes.ALGORITHMS.contains(p.algorithm()), text);
      assertEquals(p, PieceHashes.parse(p.text()), "text reads back: " + text);
    });
  }

  @FuzzTest
  void gid(byte[] data) {
    String text = utf8(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> {
      long id = Gid.parse(text);
      assertEquals(id, Gid.parse(Gid.of(id)), text);
    });
  }

  @FuzzTest
  @DictionaryEntries({",", "-", "1", "3", "2147483647", "0"})
  void metalinkSelection(byte[] data) {
    String text = utf8(data);
    FuzzContract.holds(IllegalArgumentException.class, () -> {
      List<Metalink.File> chosen = THREE_FILES.files(text);
      assertFalse(chosen.isEmpty(), text);
      List<Metalink.File> inOrder = new ArrayList<>(THREE_FILES.files());
      inOrder.retainAll(chosen);
      assertEquals(inOrder, chosen, "a selection keeps document order, each file once: " + text);
    });
  }

  private static Metalink.File file(String name) {
    return new Metalink.File(name, -1, Map.of(), null, List.of());
  }
}
