package dev.braid.rpc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The rule of the folders a daemon's RPC may write to: a folder is allowed when, symbolic links
 * resolved, it lies under one of the roots (the daemon's {@code -d} folder and its
 * {@code --allow-dir}s). The daemon applies it to every call's {@code dir}; a command that would
 * hand its downloads to a daemon applies it first, so that a folder the daemon must refuse is
 * downloaded into by the command itself.
 */
public final class WritableFolders {
  private WritableFolders() {}

  /**
   * Whether {@code dir} lies under one of {@code roots}, links resolved.
   *
   * @throws IOException when a folder on the way cannot be read
   */
  public static boolean contain(List<Path> roots, Path dir) throws IOException {
    Path real = real(dir);
    for (Path root : roots) {
      if (real.startsWith(real(root))) {
        return true;
      }
    }
    return false;
  }

  /** The real path of the longest part of {@code p} that exists, with the rest appended. */
  static Path real(Path p) throws IOException {
    Path existing = p.toAbsolutePath().normalize();
    Path rest = p.getFileSystem().getPath("");
    while (!Files.exists(existing) && existing.getParent() != null) {
      rest = existing.getFileName().resolve(rest);
      existing = existing.getParent();
    }
    return existing.toRealPath().resolve(rest).normalize();
  }
}
