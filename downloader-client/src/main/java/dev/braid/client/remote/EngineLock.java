package dev.braid.client.remote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One resident engine per state database: an exclusive lock on {@code STATE_DB.daemon.lock},
 * held while the daemon runs and released by the system when its process ends, even by SIGKILL.
 * The file holds the holder's pid, for the message a second daemon prints.
 */
public final class EngineLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private EngineLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** The lock file of a state database. */
  public static Path fileOf(Path stateDatabase) {
    return stateDatabase.resolveSibling(stateDatabase.getFileName() + ".daemon.lock");
  }

  /**
   * Takes the lock of {@code stateDatabase}'s engine.
   *
   * @throws EngineRunningException when another live process holds it
   * @throws IOException when the lock file cannot be made or written
   */
  public static EngineLock acquire(Path stateDatabase) throws IOException, EngineRunningException {
    Path file = fileOf(stateDatabase);
    // the state database's folder, when it is made here first: its owner's only, as the store makes it
    Files.createDirectories(file.toAbsolutePath().getParent(), SecretFile.PRIVATE_FOLDER);
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      String holder = holder(file);
      ch.close();
      throw new EngineRunningException("another braid daemon" + (holder.isEmpty() ? "" : " (pid " + holder + ")")
          + " runs the queue of " + stateDatabase);
    }
    ch.truncate(0);
    ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
    ch.force(false);
    return new EngineLock(ch, lock);
  }

  private static String holder(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      return "";
    }
  }

  /** Releases the lock (the file stays: deleting it could let two daemons lock two different files). */
  @Override
  public void close() throws IOException {
    lock.release();
    channel.close();
  }

  /** Another daemon already runs the engine of this state database. */
  public static final class EngineRunningException extends Exception {
    private static final long serialVersionUID = 1L;

    EngineRunningException(String message) {
      super(message);
    }
  }
}
