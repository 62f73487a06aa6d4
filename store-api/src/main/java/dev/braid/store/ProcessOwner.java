package dev.braid.store;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Names this process as the owner of queue entries ({@code host:pid:start-millis}) and tells
 * whether another owner is still alive. On the same host the process table answers at once, so a
 * download whose process was killed can be taken over immediately; the start time guards against
 * a reused pid. For another host sharing the database, only a recent heartbeat counts.
 *
 * <p>Every store names owners so; {@link #holds} is the rule of a store without leases of its
 * own (SQLite, see {@link QueueStore#held}).
 */
public final class ProcessOwner {
  private static final Duration FOREIGN_HEARTBEAT = Duration.ofSeconds(30);
  private static final String HOST = hostName();

  private ProcessOwner() {}

  /** {@return this process's owner name} */
  public static String self() {
    return of(ProcessHandle.current());
  }

  /**
   * {@return the owner name of process {@code p} on this host}
   *
   * @param p a process on this host
   */
  public static String of(ProcessHandle p) {
    return HOST + ":" + p.pid() + ":" + startMillis(p).orElse(0L);
  }

  /**
   * Whether the process holding {@code e} (another one than this) is still running.
   *
   * @param e the entry as read, with its owner and heartbeat
   * @return whether its owner runs (on this host) or reported recently (on another)
   */
  public static boolean holds(QueueEntry e) {
    String owner = e.owner();
    if (owner == null) {
      return false;
    }
    String[] parts = owner.split(":");
    if (parts.length != 3) {
      return false;
    }
    if (!parts[0].equals(HOST)) {
      return System.currentTimeMillis() - e.heartbeatMillis() < FOREIGN_HEARTBEAT.toMillis();
    }
    try {
      long pid = Long.parseLong(parts[1]);
      long start = Long.parseLong(parts[2]);
      return ProcessHandle.of(pid).flatMap(ProcessOwner::startMillis).map(s -> s == start).orElse(false);
    } catch (NumberFormatException ex) {
      return false;
    }
  }

  /**
   * The pid in an owner name, for messages.
   *
   * @param owner an owner name, or null
   * @return the pid, or {@code ?} for a name of another form
   */
  public static String pidOf(String owner) {
    String[] parts = owner == null ? new String[0] : owner.split(":");
    return parts.length == 3 ? parts[1] : "?";
  }

  private static Optional<Long> startMillis(ProcessHandle p) {
    return p.info().startInstant().map(Instant::toEpochMilli);
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName().replace(':', '_');
    } catch (java.io.IOException e) {
      return "localhost";
    }
  }
}
