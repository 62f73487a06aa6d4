package dev.braid.core.internal.queue;

import dev.braid.store.ResumeRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Deletes what a removed entry left on disk: its part file with the resume record that describes
 * it, and, when asked, the complete file.
 */
final class EntryFiles {
  private EntryFiles() {}

  /**
   * Deletes the resume record of {@code target} and its {@code .part}, and {@code target} itself
   * with {@code alsoComplete}. On the caller's thread.
   *
   * @throws IllegalStateException when a file cannot be deleted
   */
  public static void delete(ResumeRecords records, Path target, boolean alsoComplete) {
    try {
      records.findByTarget(target).ifPresent(r -> records.delete(r.id()));
      Files.deleteIfExists(target.resolveSibling(target.getFileName() + ".part"));
      if (alsoComplete) {
        Files.deleteIfExists(target);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot delete " + target + ": " + e.getMessage(), e);
    }
  }
}
