package dev.braid.core.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The {@code name.part} file of one download. Many workers write to it at once with positional
 * writes (safe and not serialised on one channel); one thread forces it. It holds an exclusive
 * lock for its whole life so that a second process can never drive the same download; the lock
 * dies with the process, also on SIGKILL.
 *
 * <p>Never interrupt a thread inside {@link #write}: an interrupt closes the channel for every
 * worker. Workers are stopped by aborting their HTTP exchange instead.
 */
public final class PartFile implements SegmentSink, AutoCloseable {
  /** Below this much usable space a failed write is a full disk: more than one worker's buffer (128 KiB). */
  private static final long LOW_SPACE_BYTES = 1 << 20;

  private final Path path;
  private final FileChannel channel;
  private final FileLock lock;

  private PartFile(Path path, FileChannel channel, FileLock lock) {
    this.path = path;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Opens (creating if absent) and locks the part file. A symbolic link in its place is not
   * followed (the open fails): a link planted as {@code name.part} would have the download write
   * wherever it leads.
   *
   * @throws PartFileLockedException if another process holds it
   */
  public static PartFile open(Path path) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
        LinkOption.NOFOLLOW_LINKS);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      throw new PartFileLockedException(path);
    }
    // no fsync of the folder for the new entry: if a power cut loses it, the record of the
    // download finds no part file and starts afresh, and its bytes were lost with the entry anyway
    return new PartFile(path, channel, lock);
  }

  public Path path() {
    return path;
  }

  @Override
  public String name() {
    return path.toString();
  }

  public long size() throws IOException {
    return channel.size();
  }

  /** Empties the file and, for a known length, sizes it (sparse) so that positional writes never extend it. */
  public void reset(long length) throws IOException {
    channel.truncate(0);
    if (length > 0) {
      channel.write(ByteBuffer.allocate(1), length - 1);
    }
  }

  /** Writes all of {@code buffer} at {@code position}. */
  @Override
  public void write(ByteBuffer buffer, long position) throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
  }

  /** Reads into {@code buffer} from {@code position} until it is full or the file ends; returns the bytes read. */
  public int read(ByteBuffer buffer, long position) throws IOException {
    int total = 0;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, position + total);
      if (n < 0) {
        break;
      }
      total += n;
    }
    return total;
  }

  /**
   * Whether the filesystem holding this file has less than a write's worth of usable space left:
   * what a failed write or force is taken to mean. The JDK gives ENOSPC no exception of its own,
   * and its message is the OS's, in the user's language; the free space is not.
   */
  @Override
  public boolean outOfSpace() {
    // not File.getUsableSpace, the planner's cheaper statfs: it answers 0 for an error too, which is no full disk
    try {
      return Files.getFileStore(path).getUsableSpace() < LOW_SPACE_BYTES;
    } catch (IOException e) {
      return false;
    }
  }

  /** Makes every byte written so far durable (fdatasync). */
  public void force() throws IOException {
    channel.force(false);
  }

  /**
   * Renames the part file to {@code target} atomically (replacing it only when {@code replace}).
   * The caller has forced every byte written ({@link #force}): the final name must never point at
   * data that a power cut could still lose. The rename itself is not forced (no fsync of the
   * folder): a power cut may undo it, and the next run finds a complete part file under a
   * complete record and renames it then (see {@code Attempt}).
   */
  public void commitTo(Path target, boolean replace) throws IOException {
    try {
      if (replace) {
        Files.move(path, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.move(path, target, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("cannot rename " + path + " to " + target + " atomically", e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } finally {
      channel.close();
    }
  }
}
