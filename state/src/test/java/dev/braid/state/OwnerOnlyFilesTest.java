package dev.braid.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.store.RemoteIdentity;
import dev.braid.store.SegmentRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state database holds full URLs: its files and the folders made for it are its owner's alone (real files, real modes). */
class OwnerOnlyFilesTest {
  private static final RemoteIdentity REMOTE = new RemoteIdentity("http://h/f?sig=x", 100, null, null, true);

  @TempDir Path dir;

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private static Path sibling(Path db, String suffix) {
    return db.resolveSibling(db.getFileName() + suffix);
  }

  @Test
  void aNewDatabaseItsWalShmAndItsNewFoldersAreTheOwnersOnly() throws Exception {
    Path db = dir.resolve("made/for/it/state.db");
    try (Store store = Store.open(db)) {
      store.create("http://h/f?sig=x", dir.resolve("f.bin"), REMOTE, List.of(new SegmentRecord(0, 100, 0)));
      assertEquals("rw-------", mode(db));
      assertEquals("rw-------", mode(sibling(db, "-wal")), "SQLite gives the WAL the database's mode");
      assertEquals("rw-------", mode(sibling(db, "-shm")));
    }
    for (Path folder : List.of(dir.resolve("made"), dir.resolve("made/for"), dir.resolve("made/for/it"))) {
      assertEquals("rwx------", mode(folder), folder::toString);
    }
  }

  @Test
  void anOlderDatabaseReadableByOthersIsTightenedWithOneNote() throws Exception {
    Path db = dir.resolve("shared/state.db");
    Files.createDirectories(dir.resolve("shared"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    try (Store store = Store.open(db)) {
      store.create("http://h/f?sig=x", dir.resolve("f.bin"), REMOTE, List.of(new SegmentRecord(0, 100, 0)));
    }
    // as an older Braid left them (SQLite's default 0644), with a WAL and shm kept beside
    Files.writeString(sibling(db, "-wal"), "");
    Files.writeString(sibling(db, "-shm"), "");
    for (String suffix : List.of("", "-wal", "-shm")) {
      Files.setPosixFilePermissions(sibling(db, suffix), PosixFilePermissions.fromString("rw-r--r--"));
    }
    ByteArrayOutputStream notes = new ByteArrayOutputStream();
    OwnerOnlyFiles.prepare(db, new PrintStream(notes, true, StandardCharsets.UTF_8));
    for (String suffix : List.of("", "-wal", "-shm")) {
      assertEquals("rw-------", mode(sibling(db, suffix)), suffix);
    }
    String said = notes.toString(StandardCharsets.UTF_8);
    assertTrue(said.startsWith("braid: note: state.db, state.db-wal, state.db-shm in " + db.getParent()), said);
    assertEquals(1, said.lines().count(), said);
    assertEquals("rwxr-xr-x", mode(dir.resolve("shared")), "a folder that was there is left as it is");

    notes.reset();
    OwnerOnlyFiles.prepare(db, new PrintStream(notes, true, StandardCharsets.UTF_8));
    assertEquals("", notes.toString(StandardCharsets.UTF_8), "once: tight files need no note");
    try (Store store = Store.open(db)) {
      assertTrue(store.findByTarget(dir.resolve("f.bin")).isPresent(), "the database is the same, readable");
    }
  }
}
