package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.remote.DaemonLink;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Who a command runs for: the streams it prints to, the folder its relative paths start from, the
 * terminal it draws on, the daemon it may hand work to, and what a Ctrl-C does. Usually this very
 * process ({@link #thisProcess()}); in a daemon, a {@code braid} process on this machine that
 * relayed its command line ({@link CommandRelay}). The commands read these facts here, never from
 * {@code System}, so that the same code serves both.
 */
interface Caller {
  /** This process: its standard streams, its working directory, its JVM's shutdown hooks. */
  static Caller thisProcess() {
    return ThisProcess.INSTANCE;
  }

  /** Where results go (a detached get's ids, --json events, list and status). */
  PrintStream out();

  /**
   * Where {@code braid get -o -} writes the file's bytes: the standard output itself, unbuffered,
   * not the cleaning text stream of {@link #out()}, and telling a closed pipe as an
   * {@link java.io.IOException}. A relayed command never writes there: it hands {@code -o -} back
   * to its client ({@link #engineHere()}), so by default it is {@link #out()}.
   */
  default java.io.OutputStream data() {
    return out();
  }

  /** Where progress, summaries and errors go. */
  PrintStream err();

  /** The standard input (a list given as {@code -i -}). */
  InputStream in();

  /** Whether out and err are a terminal, so that the live line is redrawn in place. */
  boolean console();

  /** The terminal's width in columns. */
  int columns();

  /** {@code path} as this caller means it: relative to its working directory. */
  Path resolve(Path path);

  /** The daemon running the queue of {@code stateAnchor}, if one does ({@link DaemonLink#find}). */
  Optional<DaemonLink.Endpoint> daemon(Path stateAnchor);

  /**
   * A client of the engine of {@code daemon} (one {@link #daemon} gave): this process connects to
   * it; a command the daemon runs for a relay uses the daemon's own engine, not its RPC. Closing
   * the client leaves the daemon running.
   */
  BraidClient connect(DaemonLink.Endpoint daemon) throws ClientException;

  /**
   * Called before a command runs an engine of its own (no daemon for its state database, or a folder
   * the daemon may not write): in a daemon's relay it throws {@link RunLocally}, so that the work
   * goes back to the caller's own process and never runs inside the daemon.
   */
  void engineHere();

  /**
   * Called just before a command starts its work through its daemon: from here on it neither runs
   * an engine of its own nor hands its work back. A relayed command's output is held until then
   * (or its end), so that a command handed back never shows its client the same warning twice.
   */
  void throughDaemon();

  /**
   * Runs {@code action} if the caller is interrupted (Ctrl-C, SIGTERM) while the command runs; the
   * returned handle takes it back once the command no longer needs it.
   */
  Registration onInterrupt(Runnable action);

  /** An action given to {@link #onInterrupt}; {@link #remove()} takes it back. */
  interface Registration {
    void remove();
  }

  /**
   * Thrown by {@link #engineHere()} in a relayed command: the caller's process runs the command
   * itself, as it would with no daemon.
   */
  final class RunLocally extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunLocally() {
      super("runs in the caller's own process", null, false, false);
    }
  }
}
