package dev.braid.rpc;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a call may make Braid write: {@code dir} must lie under the daemon's download folder or
 * an allowed one, with symbolic links resolved; {@code out} is a relative name that stays in its
 * {@code dir}. Anything else is refused with an error, never renamed silently.
 */
final class FolderPolicy {
  private final Path downloadFolder;
  private final List<Path> allowed = new ArrayList<>();

  FolderPolicy(Path downloadFolder, List<Path> allowedFolders) {
    this.downloadFolder = downloadFolder;
    allowed.add(downloadFolder);
    allowed.addAll(allowedFolders);
  }

  Path downloadFolder() {
    return downloadFolder;
  }

  /** The folder {@code given} names (relative: under the download folder), if it is allowed. */
  Path dir(String given) throws RpcException {
    Path p;
    try {
      p = downloadFolder.resolve(given).normalize();
    } catch (InvalidPathException e) {
      throw RpcException.failed("dir '" + given + "' is not a valid path");
    }
    boolean inside;
    try {
      inside = WritableFolders.contain(allowed, p);
    } catch (IOException e) {
      throw RpcException.failed("cannot read folder " + p + ": " + e.getMessage());
    }
    if (inside) {
      return p;
    }
    throw RpcException.failed("dir " + p + " is outside the folders this daemon may write to (its -d folder and --allow-dir)");
  }

  /** The file {@code out} names in {@code dir}: relative, without {@code ..}, and not through a link leading out. */
  Path out(Path dir, String out) throws RpcException {
    Path o;
    try {
      o = Path.of(out);
    } catch (InvalidPathException e) {
      throw RpcException.failed("out '" + out + "' is not a valid file name");
    }
    if (out.isEmpty() || o.isAbsolute() || out.startsWith("/") || out.startsWith("\\")) {
      throw RpcException.failed("out '" + out + "' must be a relative file name inside dir");
    }
    for (Path part : o) {
      if (part.toString().equals("..")) {
        throw RpcException.failed("out '" + out + "' must not leave dir (no ..)");
      }
    }
    Path file = dir.resolve(o).normalize();
    if (!file.startsWith(dir) || file.equals(dir) || !real(file.getParent()).startsWith(real(dir))) {
      throw RpcException.failed("out '" + out + "' must stay inside dir " + dir);
    }
    return file;
  }

  private static Path real(Path p) throws RpcException {
    try {
      return WritableFolders.real(p);
    } catch (IOException e) {
      throw RpcException.failed("cannot read folder " + p + ": " + e.getMessage());
    }
  }
}
