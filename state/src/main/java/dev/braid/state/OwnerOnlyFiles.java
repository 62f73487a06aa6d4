package dev.braid.state;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps the state database its owner's alone: it holds full URLs, signed query tokens included.
 * The folders made for it are created 0700 and the database 0600 before SQLite opens it, so its
 * {@code -wal} and {@code -shm} files, which SQLite creates with the database's mode, are 0600
 * too. A database, {@code -wal} or {@code -shm} that others may read (an older Braid's, 0644) is
 * tightened, with one note on stderr. A folder that was already there is left as it is: it may be
 * shared (a project folder, {@code /tmp}), and its files are private anyway.
 *
 * <p>Runs before the writer's connection is opened; no state of its own.
 */
final class OwnerOnlyFiles {
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private OwnerOnlyFiles() {}

  /**
   * Makes {@code database}'s missing folders and the database file itself, owner-only, or tightens
   * the existing files, saying so on {@code notes}.
   */
  static void prepare(Path database, PrintStream notes) throws IOException {
    if (!database.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      // no POSIX modes (Windows): the user's profile folder guards it
      Files.createDirectories(database.getParent());
      return;
    }
    Files.createDirectories(database.getParent(),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    try {
      // empty: SQLite takes an empty file for a new database
      Files.createFile(database, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      return;
    } catch (FileAlreadyExistsException existing) {
      // tightened below
    }
    List<String> tightened = new ArrayList<>();
    for (String suffix : List.of("", "-wal", "-shm")) {
      Path f = database.resolveSibling(database.getFileName() + suffix);
      if (Files.exists(f)) {
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(f);
        if (mode.removeAll(OTHERS)) {
          tighten(f, mode, notes, tightened);
        }
      }
    }
    if (!tightened.isEmpty()) {
      notes.println("braid: note: " + String.join(", ", tightened) + " in " + database.getParent()
          + " could be read by other users; made readable by you only (they hold full URLs)");
    }
  }

  /**
   * Sets {@code f}'s tighter {@code mode}. A file of another user's (a database shared through its
   * group) cannot be changed: it is used as before, and the note says so each time.
   */
  private static void tighten(Path f, Set<PosixFilePermission> mode, PrintStream notes, List<String> tightened) {
    try {
      Files.setPosixFilePermissions(f, mode);
      tightened.add(f.getFileName().toString());
    } catch (IOException notOurs) {
      notes.println("braid: note: " + f + " can be read by other users and this user cannot change that ("
          + notOurs.getMessage() + "); it holds full URLs: chmod go-rwx " + f);
    }
  }
}
