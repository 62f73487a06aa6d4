package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.remote.DaemonLink;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@link Caller} for a command line a local {@code braid} process relayed to this daemon
 * ({@link RelaySession}): its output goes back as frames, its paths are relative to the client's
 * folder, its daemon is this one, and anything it would run in an engine of its own, or read from
 * its standard input, goes back to the client ({@link Caller.RunLocally}).
 *
 * <p>Until the command works through the daemon ({@link #throughDaemon()}) or ends, its output is
 * held here, framed, rather than sent: a command handed back then runs again in the client, which
 * prints all of it itself. Output past {@link #MAX_HELD_BYTES} is sent regardless (a hand-back after
 * it shows that part twice): no command prints that much before it has chosen.
 *
 * <p>Threads: the command's thread prints and registers; the session's thread calls {@link
 * #interrupt()} and {@link #abandon()}. Frames are written under {@code writing}, which also guards
 * {@code closed}, {@code held} and {@code holding}: nothing is sent after the last frame.
 */
final class RelayedCaller implements Caller {
  /** Output held before the command chose where it runs; more is sent regardless. */
  private static final int MAX_HELD_BYTES = 64 << 10;

  private final DataOutputStream to;
  private final Object writing = new Object();
  /** @GuardedBy("writing"): the exit or hand-back frame is sent, or the client is gone. */
  private boolean closed;
  private volatile boolean handedBack;
  /** @GuardedBy("writing"): the frames printed before the command chose where it runs. */
  private final ByteArrayOutputStream held = new ByteArrayOutputStream();
  private final DataOutputStream heldFrames = new DataOutputStream(held);
  /** @GuardedBy("writing"): whether output is still held rather than sent. */
  private boolean holding = true;
  private final PrintStream out;
  private final PrintStream err;
  private final Path cwd;
  private final boolean console;
  private final int columns;
  private final Path stateAnchor;
  private final DaemonLink.Endpoint daemon;
  private final BraidClient engine;
  private final java.util.function.BooleanSupplier stopping;
  private final List<Runnable> interrupts = new CopyOnWriteArrayList<>();

  RelayedCaller(DataOutputStream to, RelayFrames.Hello hello, DaemonLink.Endpoint daemon, BraidClient engine,
      java.util.function.BooleanSupplier stopping) {
    this.to = to;
    this.cwd = Path.of(hello.cwd());
    this.console = hello.console();
    this.columns = hello.columns() > 0 ? hello.columns() : 80;
    this.stateAnchor = Path.of(hello.stateAnchor());
    this.daemon = daemon;
    this.engine = engine;
    this.stopping = stopping;
    this.out = TerminalStream.over(new PrintStream(new Frames(RelayFrames.OUT), true, Charset.defaultCharset()));
    this.err = TerminalStream.over(new PrintStream(new Frames(RelayFrames.ERR), true, Charset.defaultCharset()));
  }

  @Override
  public PrintStream out() {
    return out;
  }

  @Override
  public PrintStream err() {
    return err;
  }

  /** The client's standard input is not relayed: a command that reads it runs there. */
  @Override
  public InputStream in() {
    throw backToClient();
  }

  @Override
  public boolean console() {
    return console;
  }

  @Override
  public int columns() {
    return columns;
  }

  @Override
  public Path resolve(Path path) {
    return cwd.resolve(path);
  }

  /** This daemon, for the state database the client found it by; another database goes back to the client. */
  @Override
  public Optional<DaemonLink.Endpoint> daemon(Path anchor) {
    if (!anchor.equals(stateAnchor)) {
      throw backToClient();
    }
    return Optional.of(daemon);
  }

  /** The daemon's own engine, borrowed: a relayed command never goes through the daemon's RPC to reach it. */
  @Override
  public BraidClient connect(DaemonLink.Endpoint daemon) {
    return new BorrowedClient(engine, stopping);
  }

  @Override
  public void engineHere() {
    throw backToClient();
  }

  @Override
  public Registration onInterrupt(Runnable action) {
    interrupts.add(action);
    return new Registration() {
      @Override
      public void remove() {
        interrupts.remove(action);
      }
    };
  }

  /** The command works through this daemon now: what it printed so far goes to the client. */
  @Override
  public void throughDaemon() {
    synchronized (writing) {
      sendHeld();
    }
  }

  /** Sends the held frames and stops holding; the caller holds {@code writing}. */
  private void sendHeld() {
    if (!holding) {
      return;
    }
    holding = false;
    if (closed || held.size() == 0) {
      return;
    }
    try {
      held.writeTo(to);
      to.flush();
    } catch (IOException gone) {
      closed = true;
    }
    held.reset();
  }

  private RunLocally backToClient() {
    handedBack = true;
    return new RunLocally();
  }

  /** Hands the command back before it starts. */
  void handBackNow() {
    handedBack = true;
    finish(ExitCode.OK);
  }

  /** The client's Ctrl-C: runs what the command registered, on the calling thread. */
  void interrupt() {
    for (Runnable r : interrupts) {
      r.run();
    }
  }

  /** The client is gone: nothing more is sent. */
  void abandon() {
    synchronized (writing) {
      closed = true;
    }
  }

  /** Sends the last frame: the exit code, or the command handed back to the client. */
  void finish(int exitCode) {
    out.flush();
    err.flush();
    synchronized (writing) {
      if (closed) {
        return;
      }
      try {
        if (handedBack) {
          // the client runs the command again and prints what it printed here itself
          closed = true;
          to.writeByte(RelayFrames.LOCAL);
        } else {
          sendHeld();
          closed = true;
          to.writeByte(RelayFrames.EXIT);
          to.writeInt(exitCode);
        }
        to.flush();
      } catch (IOException gone) {
        // the client left: it has no use for its exit code
      }
    }
  }

  /** One output stream as frames of its type, held or sent; once the command is handed back, its output goes nowhere. */
  private final class Frames extends OutputStream {
    private final byte type;

    Frames(byte type) {
      this.type = type;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      synchronized (writing) {
        if (closed || handedBack || len == 0) {
          return;
        }
        try {
          if (holding && held.size() + len <= MAX_HELD_BYTES) {
            frame(heldFrames, b, off, len);
            return;
          }
          sendHeld();
          frame(to, b, off, len);
          to.flush();
        } catch (IOException gone) {
          // only the socket's writes fail: the held frames are in memory
          closed = true;
        }
      }
    }

    private void frame(DataOutputStream into, byte[] b, int off, int len) throws IOException {
      into.writeByte(type);
      into.writeInt(len);
      into.write(b, off, len);
    }
  }
}
