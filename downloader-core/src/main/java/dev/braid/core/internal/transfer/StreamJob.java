package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadStream;
import dev.braid.core.IntegrityException;
import dev.braid.core.LocalFileException;
import dev.braid.core.Progress;
import dev.braid.core.internal.http.HttpTransport;
import dev.braid.core.internal.http.PhaseListener;
import dev.braid.core.internal.io.ReorderWindow;
import dev.braid.core.internal.limit.Throttle;
import dev.braid.core.internal.limit.TokenBucket;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.verify.InOrderDigests;
import dev.braid.store.StateStore;
import dev.braid.store.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A download read in order ({@link DownloadStream}): {@link #run()} is its driver, on a thread of
 * the engine's driver pool, and runs one {@link StreamPass} whose workers fill the
 * {@link ReorderWindow}; the reader takes the bytes from it on its own thread and checks them as
 * they pass ({@link InOrderDigests}). Not in the queue and not in the store: nothing of it outlives
 * the process, and nothing resumes it.
 *
 * <p>{@link #close()} (any thread) halts the pass, closes the window (a blocked writer or reader
 * wakes and fails) and waits for the driver to return, so no worker writes after it.
 */
public final class StreamJob implements Runnable, DownloadStream {
  private final DownloadRequest request;
  private final DownloadParts parts;
  private final ReorderWindow window = new ReorderWindow(InOrder.BUFFER);
  private final StreamPass pass;
  private final CompletableFuture<Void> ended = new CompletableFuture<>();
  /** The reader's checks; made once the length is known, on the reader's thread. */
  private InOrderDigests digests;
  private volatile boolean open = true;

  /** A stream of {@code request}, under the engine's connection budget and rate limit; {@link #run()} starts it. */
  public StreamJob(HttpTransport http, StateStore store, EngineSettings settings, DownloadRequest request, Executor workers,
      ConnectionBudget budget, TokenBucket globalRate, PhaseListener phases) {
    this.request = request;
    this.parts = DownloadJob.parts(http, store, settings, request, workers, budget,
        new Throttle(new TokenBucket(request.rateLimit(), settings.ticker()), globalRate), phases);
    this.pass = new StreamPass(parts, request, window);
  }

  @Override
  public void run() {
    try {
      window.finish(pass.run());
    } catch (DownloadException e) {
      window.fail(e);
    } catch (StoreException e) {
      window.fail(new LocalFileException(e.getMessage(), e));
    } catch (RuntimeException | Error e) {
      window.fail(e);
    } finally {
      ended.complete(null);
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!open) {
      throw new ClosedChannelException();
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    // the window's failure is an IOException whose cause is the download's DownloadException
    int n = window.take(dst.remaining(), (ring, off, count) -> {
      dst.put(ring, off, count);
      check(ring, off, count);
    });
    if (n < 0) {
      try {
        digests().finish();
      } catch (IntegrityException e) {
        throw new IOException(e.getMessage(), e);
      }
    }
    return n;
  }

  private void check(byte[] ring, int off, int count) throws IOException {
    try {
      digests().update(ring, off, count);
    } catch (IntegrityException e) {
      pass.halt();
      throw new IOException(e.getMessage(), e);
    }
  }

  private InOrderDigests digests() {
    if (digests == null) {
      long length = pass.identity() == null ? -1 : pass.identity().length();
      // the window starts after the probe: a byte read means the server's declarations are known
      AdvertisedExtras.Pass advertised = pass.checked();
      DownloadRequest checked = advertised == null ? request : advertised.request();
      digests = new InOrderDigests(checked.checksum().orElse(null), advertised == null ? "checksum" : advertised.what(),
          checked.pieceHashes().orElse(null), length);
    }
    return digests;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
    pass.halt();
    window.close();
    boolean interrupted = false;
    while (true) {
      try {
        ended.get();
        break;
      } catch (InterruptedException e) {
        // keep waiting: the workers stop within an abort, and none may write after close returns
        interrupted = true;
      } catch (java.util.concurrent.ExecutionException cannot) {
        break;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public Progress progress() {
    SegmentTable t = pass.table();
    if (t == null) {
      return new Progress(-1, 0, 0, 0, parts.log().elapsed(), List.of());
    }
    return new Progress(pass.identity().length(), t.doneBytes(), parts.meter().bytesPerSecond(), pass.connections(),
        parts.log().elapsed(), t.view());
  }

  @Override
  public long windowPeak() {
    return window.peak();
  }

  @Override
  public int windowSize() {
    return window.size();
  }
}
