package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.RemoteClient;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@link Caller} for a command run by this process's own {@code main}: the standard streams as they
 * are when asked (tests replace them), the JVM's working directory, and a Ctrl-C as a shutdown hook
 * on a thread the JVM starts.
 */
final class ThisProcess implements Caller {
  static final ThisProcess INSTANCE = new ThisProcess();

  private ThisProcess() {}

  @Override
  public PrintStream out() {
    return System.out;
  }

  /** File descriptor 1 itself: the bytes as they are, and EPIPE as an IOException (the JVM ignores SIGPIPE). */
  @Override
  public java.io.OutputStream data() {
    return new java.io.FileOutputStream(java.io.FileDescriptor.out);
  }

  @Override
  public PrintStream err() {
    return System.err;
  }

  @Override
  public InputStream in() {
    return System.in;
  }

  @Override
  public boolean console() {
    return System.console() != null;
  }

  @Override
  public int columns() {
    return TerminalWidth.columns();
  }

  @Override
  public Path resolve(Path path) {
    return path;
  }

  @Override
  public Optional<DaemonLink.Endpoint> daemon(Path stateAnchor) {
    return DaemonLink.find(stateAnchor);
  }

  /** The daemon's JSON-RPC, on its local socket when it has one. */
  @Override
  public BraidClient connect(DaemonLink.Endpoint daemon) throws ClientException {
    return RemoteClient.connect(daemon);
  }

  @Override
  public void engineHere() {
    // this process is where the command runs
  }

  @Override
  public void throughDaemon() {
    // this process prints as it goes: nothing is held
  }

  @Override
  public Registration onInterrupt(Runnable action) {
    Thread hook = new Thread(action, "braid-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    return () -> {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running and finishes its work
      }
    };
  }
}
