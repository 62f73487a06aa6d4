package dev.braid.cli;

import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.SecretFile;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The client side of {@link CommandRelay}: a queue command ({@code get}, {@code list}, ...) with a
 * daemon on its state database sends its command line there and prints what comes back, so that
 * this JVM loads neither picocli nor a JSON library nor anything of the engine. Without a daemon,
 * or when the daemon hands the command back, the caller runs it in this process as before.
 *
 * <p>Threads: the calling thread sends the hello and copies the output until the exit frame. A
 * Ctrl-C or SIGTERM runs the JVM's shutdown hook, which sends the interrupt (the daemon pauses the
 * command's downloads, as an in-process command would) and waits, bounded, for the output to end.
 *
 * <p>No lambda and no string concatenation on the way: each costs its first link at every start.
 */
final class RelayClient {
  /** How long a Ctrl-C waits for the daemon to pause the command's downloads and say so. */
  private static final long INTERRUPT_WAIT_SECONDS = 15;
  /** The variables that pick a command's default files: a daemon whose differ hands the command back. */
  static final List<String> ENVIRONMENT = List.of("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME");

  private final SocketChannel channel;
  private final DataOutputStream out;
  private final CountDownLatch ended = new CountDownLatch(1);

  private RelayClient(SocketChannel channel) {
    this.channel = channel;
    this.out = new DataOutputStream(new BufferedOutputStream(RelayFrames.output(channel), 8192));
  }

  /**
   * Runs {@code args} in the daemon of its state database: its exit code, or empty when there is no
   * daemon to relay to or it handed the command back, so that this process runs it.
   */
  static OptionalInt run(String[] args) {
    Path anchor = DaemonLink.stateDatabaseOf(args);
    Path socket = DaemonLink.relaySocketOf(anchor);
    if (!Files.exists(socket)) {
      return OptionalInt.empty();
    }
    // no probe of the engine's lock, as DaemonLink.find does: a daemon gone leaves a socket nothing
    // listens on, and the connect fails at once; no secret: the socket serves this user alone
    Path secretFile = SecretFile.fileOf(anchor);
    if (Files.exists(secretFile)) {
      try {
        // not sent, but what guards the daemon's TCP port: one others may read is told of, as the daemon refuses it
        SecretFile.checkPrivate(secretFile, "the RPC secret file");
      } catch (SecretFile.InsecureException e) {
        System.err.print("braid: ");
        System.err.println(e.getMessage());
        return OptionalInt.of(ExitCode.LOCAL_IO);
      } catch (IOException | RuntimeException e) {
        // unreadable modes: the daemon's own start checked them
      }
    }
    return run(args, anchor, socket);
  }

  /**
   * Runs {@code args} through the relay at {@code socket} of the daemon of {@code anchor}: as
   * {@link #run(String[])} once the daemon is found (the demo's training names its own).
   */
  static OptionalInt run(String[] args, Path anchor, Path socket) {
    SocketChannel ch;
    try {
      ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    } catch (IOException | UnsupportedOperationException e) {
      return OptionalInt.empty();
    }
    try {
      ch.connect(UnixDomainSocketAddress.of(socket));
    } catch (IOException | RuntimeException e) {
      closeQuietly(ch);
      return OptionalInt.empty();
    }
    RelayClient client = new RelayClient(ch);
    try {
      return client.relay(hello(anchor, args));
    } finally {
      closeQuietly(ch);
    }
  }

  private static RelayFrames.Hello hello(Path anchor, String[] args) {
    boolean console = System.console() != null;
    return new RelayFrames.Hello(anchor.toString(), Path.of("").toAbsolutePath().toString(), console,
        console ? TerminalWidth.columns() : 0, environment(), Arrays.asList(args));
  }

  /** This process's values of {@link #ENVIRONMENT}, in its order ("" for one not set). */
  static List<String> environment() {
    List<String> values = new ArrayList<>();
    for (String name : ENVIRONMENT) {
      String value = System.getenv(name);
      values.add(value == null ? "" : value);
    }
    return values;
  }

  private OptionalInt relay(RelayFrames.Hello hello) {
    Thread hook = new Thread(new Interrupter(), "braid-relay-interrupt");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      synchronized (out) {
        hello.write(out);
      }
      return copyOutput(new DataInputStream(new BufferedInputStream(RelayFrames.input(channel), 8192)));
    } catch (IOException e) {
      System.err.println("braid: lost the braid daemon before this command ended (" + e.getMessage() + "); what it"
          + " started stays in the daemon's queue, its progress recorded");
      return OptionalInt.of(ExitCode.LOCAL_IO);
    } finally {
      ended.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs: it has sent the interrupt and is waiting for this end
      }
    }
  }

  /** Copies the output frames to this process's streams until the exit frame. */
  private OptionalInt copyOutput(DataInputStream in) throws IOException {
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    byte[] buf = new byte[8192];
    while (true) {
      int type = RelayFrames.readType(in);
      switch (type) {
        case RelayFrames.OUT, RelayFrames.ERR -> {
          PrintStream to = type == RelayFrames.OUT ? stdout : stderr;
          int n = in.readInt();
          if (n < 0) {
            throw new IOException("a broken frame from the daemon");
          }
          while (n > 0) {
            int k = in.read(buf, 0, Math.min(n, buf.length));
            if (k < 0) {
              throw new IOException("the daemon closed the connection");
            }
            to.write(buf, 0, k);
            n -= k;
          }
          to.flush();
        }
        case RelayFrames.EXIT -> {
          return OptionalInt.of(in.readInt());
        }
        case RelayFrames.LOCAL -> {
          return OptionalInt.empty();
        }
        case -1 -> throw new IOException("the daemon closed the connection");
        default -> throw new IOException("an unknown frame from the daemon");
      }
    }
  }

  private static void closeQuietly(SocketChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      // closing: nothing left to do with it
    }
  }

  /** The shutdown hook: tells the daemon, then waits (bounded) for the command's last output. */
  private final class Interrupter implements Runnable {
    @Override
    public void run() {
      try {
        synchronized (out) {
          out.writeByte(RelayFrames.INTERRUPT);
          out.flush();
        }
        ended.await(INTERRUPT_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (IOException e) {
        // the session has ended: nothing to interrupt
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
