package dev.braid.core.internal.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadRequest;
import dev.braid.core.LocalFileException;
import dev.braid.core.internal.advert.Advertised;
import dev.braid.core.internal.probe.ProbeResult;
import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Naming the final file, on real folders. */
class TargetResolverTest {
  private static final URI FINAL = URI.create("http://127.0.0.1:9/files/data.bin?sig=1");

  @TempDir Path dir;

  private static ProbeResult answer(String contentDisposition) {
    return new ProbeResult(null, 0, new RemoteIdentity(FINAL.toString(), 10, null, null, true), contentDisposition, null, Advertised.NONE);
  }

  @Test
  void aFolderToDownloadIntoIsMadeAndTheNameComesFromTheAnswer() throws Exception {
    Path folder = dir.resolve("a/b");
    DownloadRequest r = DownloadRequest.builder("http://127.0.0.1:9/x").directory(folder).build();
    assertEquals(folder.resolve("data.bin"), TargetResolver.resolve(r, Optional.empty(), answer(null), FINAL));
    assertTrue(Files.isDirectory(folder));
    assertEquals(folder.resolve("report.pdf"),
        TargetResolver.resolve(r, Optional.empty(), answer("attachment; filename=\"report.pdf\""), FINAL));
  }

  @Test
  void theFolderOfAnExactFileNameIsNotMade() throws Exception {
    Path file = dir.resolve("typo/out.bin");
    DownloadRequest r = DownloadRequest.builder("http://127.0.0.1:9/x").file(file).build();
    LocalFileException e = assertThrows(LocalFileException.class,
        () -> TargetResolver.resolve(r, Optional.empty(), answer(null), FINAL));
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("typo")));
  }

  @Test
  void aFileWhereTheFolderShouldBeIsSaidSo() throws Exception {
    Files.writeString(dir.resolve("taken"), "x");
    DownloadRequest r = DownloadRequest.builder("http://127.0.0.1:9/x").directory(dir.resolve("taken")).build();
    LocalFileException e = assertThrows(LocalFileException.class,
        () -> TargetResolver.resolve(r, Optional.empty(), answer(null), FINAL));
    assertTrue(e.getMessage().contains("is not a folder"), e.getMessage());
  }

  @Test
  void aResumedRecordKeepsTheFileItChose() throws Exception {
    Path chosen = dir.resolve("earlier-name.bin");
    DownloadRecord prior = new DownloadRecord(1, "http://127.0.0.1:9/x", chosen,
        new RemoteIdentity(FINAL.toString(), 10, null, null, true), DownloadState.ACTIVE, null);
    DownloadRequest r = DownloadRequest.builder("http://127.0.0.1:9/x").directory(dir).build();
    assertEquals(chosen, TargetResolver.resolve(r, Optional.of(prior), answer("attachment; filename=\"new.bin\""), FINAL));
  }
}
