package dev.braid.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectorySyncTest {
  @TempDir Path dir;

  @Test
  void manyCallersAtOnceAllReturnOnceTheirEntriesAreSynced() throws Exception {
    int callers = 32;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<Path>> done = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        Path file = dir.resolve("f" + i);
        done.add(pool.submit(() -> {
          go.await();
          Files.writeString(file, "x");
          DirectorySync.sync(dir);
          return file;
        }));
      }
      go.countDown();
      for (Future<Path> f : done) {
        assertEquals("x", Files.readString(f.get()));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailedSyncCoversNobodyEveryCallerSeesTheError() throws Exception {
    Path gone = dir.resolve("missing");
    int callers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        all.add(pool.submit(() -> {
          DirectorySync.sync(gone);
          return null;
        }));
      }
      for (Future<?> f : all) {
        var e = assertThrows(java.util.concurrent.ExecutionException.class, f::get);
        assertEquals(NoSuchFileException.class, e.getCause().getClass());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aCallAfterAFailureSyncsAgain() throws IOException {
    Path later = dir.resolve("later");
    assertThrows(NoSuchFileException.class, () -> DirectorySync.sync(later));
    Files.createDirectory(later);
    DirectorySync.sync(later);
  }
}
