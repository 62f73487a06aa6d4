package dev.braid.rpc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;

/**
 * The keys of a {@link KeyFile} as they are now, for the running server: read again whenever the
 * file changed (its identity, size or time: every change replaces it with a new file), so that a
 * key added or revoked by {@code braid keys} counts from the next call on, at the cost of one
 * {@code stat} per check. A file that cannot be read (deleted, refused, malformed) grants no key:
 * the secret still works. Thread-safe.
 */
final class CurrentKeys {
  /** No file, or one that cannot be used. */
  private static final Stamp NONE = new Stamp(null, -1, null);

  private final KeyFile file;
  private Stamp stamp;
  private List<ApiKey> keys = List.of();

  CurrentKeys(KeyFile file) {
    this.file = file;
  }

  KeyFile file() {
    return file;
  }

  /** The keys the file holds at this moment. */
  synchronized List<ApiKey> now() {
    Stamp current = stamp();
    if (!current.equals(stamp)) {
      stamp = current;
      try {
        keys = current == NONE ? List.of() : file.list();
      } catch (IOException e) {
        keys = List.of();
      }
    }
    return keys;
  }

  private Stamp stamp() {
    try {
      BasicFileAttributes a = Files.readAttributes(file.path(), BasicFileAttributes.class);
      return new Stamp(a.lastModifiedTime(), a.size(), a.fileKey());
    } catch (NoSuchFileException e) {
      return NONE;
    } catch (IOException e) {
      // unreadable now: read again at the next check, and grant nothing meanwhile
      return new Stamp(null, -2, new Object());
    }
  }

  /** What tells one version of the file from another. */
  private record Stamp(FileTime modified, long size, Object fileKey) {}
}
