package dev.braid.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.cli.CliProcess.Result;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code braid get} of a file whose server declares a wrong {@code Repr-Digest} (RFC 9530): exit 7
 * with the bytes kept in the part file, as a wrong {@code --checksum} (that a checksum given wins
 * over the server's is the library's, {@code ServerAdvertisedTest}: one child process here).
 */
class CliServerDigestTest {
  @TempDir Path work;
  @TempDir Path stateDir;

  @Test
  void aWrongServerDigestIsExit7WithThePartFileKept() throws Exception {
    Content c = Content.random(1 << 20, 71);
    byte[] wrong = c.sha256();
    wrong[0] ^= 1;
    try (TestServer server = TestServer.start()) {
      server.serve("/f.bin", c).header("Repr-Digest", "sha-256=:" + Base64.getEncoder().encodeToString(wrong) + ":");
      Result failed = CliProcess.run(work, "get", server.url("/f.bin"), "-o", "f.bin", "--state-db",
          stateDir.resolve("state.db").toString());
      assertEquals(7, failed.exit(), failed::describe);
      assertTrue(failed.stderr().contains("digest (the server's Repr-Digest) mismatch"), failed::describe);
      assertFalse(Files.exists(work.resolve("f.bin")), failed::describe);
      assertEquals(c.sha256Hex(), Content.sha256Hex(work.resolve("f.bin.part")), "the bytes are kept");
    }
  }
}
