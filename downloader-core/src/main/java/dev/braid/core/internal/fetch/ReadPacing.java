package dev.braid.core.internal.fetch;

/**
 * How long a worker waits before its next read of a body that arrives slower than it reads it, so
 * that the socket gathers a batch of bytes between two reads. A blocked read wakes its thread for
 * every few packets: over a 100 ms link at 20 MiB/s on 16 connections that was a wake-up, a read and
 * a file write per ~6.5 KiB, and the wake-ups alone (poll) a third of the download's CPU. Waiting
 * for about {@link #BATCH} bytes at the connection's own pace, at most {@link #MAX_PAUSE_NANOS},
 * makes it one of each per what that wait gathers (at 1.3 MiB/s per connection ~13 KiB; the
 * download's CPU 0.55x). TCP does not stall: the kernel keeps receiving while the bytes wait, and a
 * batch is at most half the window a Linux socket opens with (its default 128 KiB receive buffer
 * advertises about 64 KiB), so a wait never leaves the sender facing a closed window. (Were the
 * pace underestimated, the bytes a wait gathers raise the estimate and the next wait is shorter.)
 *
 * <p>A wait follows only a read that found the socket empty: over plain HTTP/1.1 a read returns
 * everything the socket holds, so any read shorter than asked; over TLS a read returns one record
 * (at most 16 KiB) whatever the socket holds, so only a read shorter than a full record. Over TLS
 * a wait after which the next read brings less than {@link #SHORT_READ} (a server of small
 * records, whose reads would each look short) disarms the pacing until a read brings that much
 * again, so that waits can never hold a connection below its pace; a plain read empties the socket
 * whatever it brings (packets arrive in bursts, once per round trip: a wait may find few). Not
 * for HTTP/2: its streams are read from buffers the reactor fills.
 *
 * <p>Owned by one worker's {@link SegmentStreamer}; not thread-safe.
 */
final class ReadPacing {
  /** The bytes a wait lets gather. */
  static final int BATCH = 32 << 10;
  /** One full TLS record: a read of less over TLS found the socket empty. */
  static final int SHORT_READ = 16 << 10;
  /** Shorter waits save less than they cost (a timer wake-up). */
  static final long MIN_PAUSE_NANOS = 1_000_000;
  /**
   * The longest wait, whatever the pace. Longer ones (50 ms) cost wall time over a 100 ms link:
   * probably because Linux holds back the receiver's ACKs while bytes sit unread, which makes the
   * sender's ACK clock bursty (the link's buffer dropped 1.0-1.4 % of packets, not 0.6-0.8 %).
   */
  static final long MAX_PAUSE_NANOS = 10_000_000;

  private final int batch;
  private final int shortRead;
  private boolean armed = true;
  private boolean paused;

  /** For a streamer whose reads ask for at most {@code bufferSize} bytes. */
  ReadPacing(int bufferSize) {
    this.batch = Math.min(BATCH, bufferSize / 2);
    this.shortRead = Math.min(SHORT_READ, batch / 2);
  }

  /**
   * Nanoseconds to wait before the next read, 0 for none, after a read that asked for {@code asked}
   * bytes and got {@code read}, on a connection that has brought {@code bytesPerSecond} so far;
   * {@code wholeReads} when a read returns all the socket holds (plain HTTP/1.1), not one TLS record.
   */
  long pauseAfter(int read, int asked, boolean wholeReads, double bytesPerSecond) {
    boolean afterPause = paused;
    paused = false;
    if (read >= shortRead) {
      armed = true;
    } else if (afterPause && !wholeReads) {
      armed = false;
    }
    boolean empty = read < asked && (wholeReads || read < shortRead);
    if (!armed || !empty || bytesPerSecond <= 0) {
      return 0;
    }
    // the read emptied the socket: a batch gathers from now on
    double pause = batch * 1e9 / bytesPerSecond;
    if (pause < MIN_PAUSE_NANOS) {
      return 0;
    }
    paused = true;
    return (long) Math.min(MAX_PAUSE_NANOS, pause);
  }
}
