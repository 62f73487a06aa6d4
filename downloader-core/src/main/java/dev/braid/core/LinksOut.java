package dev.braid.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds a symbolic link that would take a file named inside a folder out of it. A name from
 * outside (a Metalink's {@code iso/x.iso}) is resolved in the user's folder, where a link may
 * already stand (one an archive unpacked there, say): writing through it would put the file
 * wherever it leads. Links that stay inside the folder are fine.
 */
public final class LinksOut {
  private LinksOut() {}

  /**
   * {@return the first part of {@code file}'s path below {@code folder} (the file itself included)
   * that is a symbolic link leading out of {@code folder}, or nowhere; empty when there is none}
   * Parts not made yet cannot be links: the walk stops at the first missing one.
   *
   * @param folder the folder the file must stay in (itself may be a link: the user chose it)
   * @param file a path inside {@code folder}
   * @throws IOException when a part on the way cannot be read
   */
  public static Optional<Path> firstLinkOut(Path folder, Path file) throws IOException {
    Path base = folder.toAbsolutePath().normalize();
    Path target = file.toAbsolutePath().normalize();
    if (!target.startsWith(base)) {
      throw new IllegalArgumentException(file + " is not inside " + folder);
    }
    if (!Files.isDirectory(base)) {
      return Optional.empty();
    }
    Path realBase = base.toRealPath();
    Path at = base;
    for (Path part : base.relativize(target)) {
      at = at.resolve(part);
      if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.empty();
      }
      if (Files.isSymbolicLink(at) && (!Files.exists(at) || !at.toRealPath().startsWith(realBase))) {
        return Optional.of(at);
      }
    }
    return Optional.empty();
  }
}
