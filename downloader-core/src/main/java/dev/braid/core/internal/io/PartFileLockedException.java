package dev.braid.core.internal.io;

import java.io.IOException;
import java.nio.file.Path;

/** Another process holds the lock of a part file: it is downloading the same file right now. */
public final class PartFileLockedException extends IOException {
  public PartFileLockedException(Path path) {
    super(path + " is being downloaded by another process");
  }
}
