package dev.braid.client;

import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadListener;
import dev.braid.core.Registration;
import dev.braid.store.DownloadState;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keeps the handles of the last {@value #KEPT} runs that ended in an engine, so that a face that
 * reads a download on hearing its end, or a moment later, still sees what the run did: the engine
 * keeps a handle only while someone holds it, and a run's result and figures live on its handle
 * alone (the store keeps the file and the bytes, not the run). Held here, the engine's own lookup
 * returns the same handle.
 *
 * <p>Threads: written on the engine's event thread; {@link #close()} from any.
 */
final class EndedRuns implements AutoCloseable {
  static final int KEPT = 256;
  /** End events only: a progress sample once a day is as good as none. */
  private static final Duration NO_PROGRESS = Duration.ofDays(1);

  /** Oldest end first; held for the references alone (the engine is asked, and finds them). */
  private final Map<Long, Download> ended = new LinkedHashMap<>() {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Download> eldest) {
      return size() > KEPT;
    }
  };
  private final Registration listening;

  EndedRuns(Braid braid) {
    this.listening = braid.listen(new DownloadListener() {
      @Override
      public void stateChanged(Download download, DownloadState state) {
        if (state == DownloadState.COMPLETED || state == DownloadState.FAILED) {
          keep(download);
        }
      }

      @Override
      public void removed(Download download) {
        forget(download.id());
      }
    }, NO_PROGRESS);
  }

  private synchronized void keep(Download d) {
    ended.remove(d.id());
    ended.put(d.id(), d);
  }

  private synchronized void forget(long id) {
    ended.remove(id);
  }

  @Override
  public void close() {
    listening.close();
  }
}
