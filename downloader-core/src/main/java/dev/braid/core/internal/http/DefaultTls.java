package dev.braid.core.internal.http;

import java.io.IOException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;

/**
 * The JDK's default TLS context, with the public suffix list of HttpClient's host name check, set
 * up once per process and shared by every client of it. In a new JVM that is ~0.2 CPU-s (the
 * JDK's ~140 CAs parsed, every cipher suite tried, ~15,000 suffixes read), which a first https
 * download otherwise spends after its TCP connect, on its own thread, with the other core idle.
 * {@link #prepare} starts it as soon as a front end knows an https download is coming; the first
 * connection then waits for it instead of doing it.
 *
 * <p>Threads: {@code braid-tls-warm-up}, started at most once per process by {@link #prepare},
 * ends when the set-up is done; a daemon, never interrupted. Without {@link #prepare}, the first
 * connection that needs the context sets it up on its own thread. Like the JDK's own default
 * context, it is made once: a trust store named by {@code javax.net.ssl.trustStore} later in the
 * process's life is not read.
 */
public final class DefaultTls {
  private static final FutureTask<SSLContext> SETUP = new FutureTask<>(() -> LazyTlsStrategy.prepare(null));
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private DefaultTls() {}

  /** Starts the set-up on a thread of its own, unless it has begun already; returns at once. */
  public static void prepare() {
    if (STARTED.compareAndSet(false, true)) {
      Thread t = new Thread(SETUP, "braid-tls-warm-up");
      t.setDaemon(true);
      t.start();
    }
  }

  /** The context: set up here if nobody began it, else whatever the set-up gave, once it is done. */
  static SSLContext context() throws IOException {
    if (STARTED.compareAndSet(false, true)) {
      SETUP.run();
    }
    return LazyTlsStrategy.await(SETUP);
  }
}
