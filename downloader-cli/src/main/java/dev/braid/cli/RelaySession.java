package dev.braid.cli;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.function.Consumer;

/**
 * One relayed command line in the daemon ({@link CommandRelay}): checks the client's hello, runs the
 * command ({@link Main#run(Caller, String...)}) for a {@link RelayedCaller}, and sends its end.
 *
 * <p>Threads: the session's own thread reads the hello, starts the command's thread, then reads the
 * client's frames: an interrupt runs the command's interrupt actions and then interrupts its thread;
 * the end of the stream (the client is gone) interrupts it too. {@link #close()} closes the socket
 * and interrupts the command; both threads end within a call of the daemon's RPC.
 */
final class RelaySession {
  private final SocketChannel channel;
  private final CommandRelay.Daemon daemon;
  private final Consumer<RelaySession> closed;
  private final java.util.function.BooleanSupplier stopping;
  private final Thread reader;
  private volatile Thread command;

  RelaySession(SocketChannel channel, CommandRelay.Daemon daemon, java.util.function.BooleanSupplier stopping,
      Consumer<RelaySession> closed) {
    this.channel = channel;
    this.daemon = daemon;
    this.closed = closed;
    this.stopping = stopping;
    this.reader = new Thread(this::serve, "braid-relay-session");
    reader.setDaemon(true);
  }

  void start() {
    reader.start();
  }

  private void serve() {
    try {
      DataInputStream in = new DataInputStream(new BufferedInputStream(RelayFrames.input(channel), 8192));
      DataOutputStream to = new DataOutputStream(new BufferedOutputStream(RelayFrames.output(channel), 8192));
      RelayFrames.Hello hello = RelayFrames.Hello.read(in);
      RelayedCaller caller = new RelayedCaller(to, hello, daemon.endpoint(), daemon.engine(), stopping);
      if (hello.args().isEmpty() || !Main.CLIENTS.contains(hello.args().get(0))) {
        // only the queue commands run here: a daemon never runs another engine, a demo or a second daemon
        caller.handBackNow();
        return;
      }
      if (!daemon.environment().equals(hello.environment())) {
        // another HOME or XDG folder means other default files (rules, state database): the client's own process knows them
        caller.handBackNow();
        return;
      }
      Thread t = new Thread(() -> {
        try {
          caller.finish(run(caller, hello.args()));
        } catch (Error e) {
          // the client hears of it, and the daemon's own handler reports it
          caller.finish(ExitCode.INTERNAL);
          throw e;
        }
      }, "braid-relay-command");
      t.setDaemon(true);
      command = t;
      t.start();
      listen(in, caller, t);
    } catch (IOException | java.nio.file.InvalidPathException e) {
      // a broken or foreign client (a path no file system has): nothing to answer
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      close();
      closed.accept(this);
    }
  }

  /** The client's frames while the command runs: an interrupt, or its end. */
  private void listen(DataInputStream in, RelayedCaller caller, Thread t) throws InterruptedException {
    try {
      int type = RelayFrames.readType(in);
      if (type == RelayFrames.INTERRUPT) {
        caller.interrupt();
      } else {
        caller.abandon();
      }
    } catch (IOException gone) {
      caller.abandon();
    }
    t.interrupt();
    t.join();
  }

  private static int run(RelayedCaller caller, List<String> args) {
    try {
      return Main.run(caller, args.toArray(String[]::new));
    } catch (RuntimeException e) {
      return GetCommand.internalError(caller.err(), e, false);
    }
  }

  /** Waits at most {@code millis} for the session to end: its command done and its client gone. */
  void awaitEnd(long millis) throws InterruptedException {
    reader.join(millis);
  }

  /** Closes the connection and interrupts the command. */
  void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // closing: nothing left to do with it
    }
    Thread t = command;
    if (t != null) {
      t.interrupt();
    }
  }
}
