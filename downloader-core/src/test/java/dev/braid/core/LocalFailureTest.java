package dev.braid.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.braid.testserver.Content;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Local failures on real small filesystems: tmpfs mounts need root (CI runs as root); elsewhere
 * these tests are skipped with a message rather than faked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalFailureTest extends DownloadHarness {
  private final List<Path> mounts = new ArrayList<>();

  private Path tmpfs(String name, String options) throws Exception {
    Path mountPoint = Files.createDirectory(dir.resolve(name));
    Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", options, "tmpfs", mountPoint.toString())
        .redirectErrorStream(true).start();
    boolean ok = p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    assumeTrue(ok, "cannot mount tmpfs here (needs root): " + new String(p.getInputStream().readAllBytes()));
    mounts.add(mountPoint);
    return mountPoint;
  }

  @AfterEach
  void unmount() throws Exception {
    for (Path m : mounts) {
      new ProcessBuilder("umount", "-l", m.toString()).start().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aFileLargerThanTheFreeSpaceFailsUpFrontLeavingNothing() throws Exception {
    Path small = tmpfs("small", "size=2m");
    server.serve("/f.bin", Content.random(8L << 20, 1)).etag("\"v1\"");
    LocalFileException e = assertThrows(LocalFileException.class, () -> get(request("/f.bin", small.resolve("f.bin"))));
    assertTrue(e.getMessage().contains("not enough space"), e.getMessage());
    try (Stream<Path> left = Files.list(small)) {
      assertEquals(List.of(), left.toList(), "nothing half-written");
    }
  }

  @Test
  void aDiskThatFillsMidDownloadFailsAsLocalAndKeepsTheRecordedBytes() throws Exception {
    Path small = tmpfs("fill", "size=6m");
    Content c = Content.random(4L << 20, 2);
    var res = server.serve("/f.bin", c).etag("\"v1\"").rateLimitPerConnection(2L << 20);
    Path out = small.resolve("f.bin");
    Download d = braid.submit(request("/f.bin", out).connections(2).build());
    awaitProgress(d, 512 << 10);
    // another program takes the remaining space while the download runs
    try (var filler = Files.newOutputStream(small.resolve("filler"))) {
      byte[] mib = new byte[1 << 20];
      for (int i = 0; i < 6; i++) {
        filler.write(mib);
      }
    } catch (IOException full) {
      // expected: the filesystem is full now
    }
    res.rateLimitPerConnection(0);
    LocalFileException e = assertThrows(LocalFileException.class, () -> await(d));
    assertTrue(e.getMessage().contains("No space left") || e.getMessage().contains("cannot write"), e.getMessage());
    assertEquals(FailureDetail.DISK_FULL, d.failure().orElseThrow().detail(), "aria2's code 9, not the 17 of any other I/O error");
    assertTrue(Files.exists(small.resolve("f.bin.part")), "the part file and its recorded bytes are kept");
  }

  @Test
  void aReadOnlyFolderIsALocalError() throws Exception {
    Path ro = tmpfs("ro", "ro,size=1m");
    server.serve("/f.bin", Content.random(1000, 3)).etag("\"v1\"");
    LocalFileException e = assertThrows(LocalFileException.class, () -> get(request("/f.bin", ro.resolve("f.bin"))));
    assertTrue(e.getMessage().contains("not writable") || e.getMessage().contains("Read-only"), e.getMessage());
  }
}
