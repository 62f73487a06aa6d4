package dev.braid.core.internal.queue;

import dev.braid.core.Download;
import dev.braid.core.DownloadHook;
import dev.braid.core.DownloadListener;
import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadResult;
import dev.braid.core.HookEvent;
import dev.braid.core.internal.hook.HookRunner;
import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.store.DownloadState;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Hands the ends of the downloads this process ran to the hook runner: a completion to the
 * complete hooks, a failure (not a pause, not a removal) to the error hooks. A download another
 * process ran, or one completed earlier and only submitted again, calls no hook. Runs on Braid's
 * event thread, where it only queues.
 */
final class HookDispatch implements DownloadListener {
  private final HookRunner runner;
  private final List<DownloadHook> onComplete;
  private final List<DownloadHook> onError;
  /** The runs already announced: a state can be reported twice for one run (a refresh after the end). */
  private final Set<DownloadJob> announced = Collections.newSetFromMap(new WeakHashMap<>());

  HookDispatch(HookRunner runner, List<DownloadHook> onComplete, List<DownloadHook> onError) {
    this.runner = runner;
    this.onComplete = List.copyOf(onComplete);
    this.onError = List.copyOf(onError);
  }

  @Override
  public void stateChanged(Download d, DownloadState state) {
    // every handle the queue's bus sends is one of its own
    DownloadJob job = d instanceof QueuedDownload q ? q.job() : null;
    if ((state != DownloadState.COMPLETED && state != DownloadState.FAILED) || job == null) {
      return;
    }
    CompletableFuture<DownloadResult> run = job.result();
    // the job's result completed before the queue announced its end: a run of this process
    if (!run.isDone()) {
      return;
    }
    Throwable failure = null;
    DownloadResult result = null;
    try {
      result = run.join();
    } catch (CompletionException | java.util.concurrent.CancellationException e) {
      failure = e.getCause() != null ? e.getCause() : e;
    }
    boolean completed = state == DownloadState.COMPLETED && result != null;
    boolean failed = state == DownloadState.FAILED && failure != null && !(failure instanceof DownloadPausedException);
    if (!(completed || failed) || !firstTime(job)) {
      return;
    }
    long length = completed ? result.length() : d.progress().length();
    HookEvent event = new HookEvent(completed ? HookEvent.Kind.COMPLETE : HookEvent.Kind.ERROR, d.id(),
        job.currentUri().toString(), completed ? result.file() : d.file().orElse(null), length, failure);
    runner.submit(event, completed ? onComplete : onError);
  }

  private synchronized boolean firstTime(DownloadJob job) {
    return announced.add(job);
  }
}
