package dev.braid.core.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where the workers' bytes go, each at its offset in the file: the {@link PartFile} of a download
 * to disk, or the {@link ReorderWindow} of a download read in order. Many workers write at once,
 * each to its own offsets.
 */
public interface SegmentSink {
  /** Writes all of {@code buffer} at {@code position}; may block (a window full of bytes not read yet). */
  void write(ByteBuffer buffer, long position) throws IOException;

  /** What a failed write names: the part file's path, or the stream. */
  String name();

  /** Whether a failed write means a full disk. */
  boolean outOfSpace();
}
