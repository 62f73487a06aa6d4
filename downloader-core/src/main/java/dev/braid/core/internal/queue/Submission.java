package dev.braid.core.internal.queue;

import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.store.DownloadState;
import dev.braid.store.NewEntry;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A request submitted to the queue: added as a new entry, or continuing the unfinished entry of
 * the same download (the same URL and target, or another URL for the same file), or answered by
 * a complete file still on disk ({@link KeptFileAnswer}). On the caller's thread; what it records,
 * each store call makes atomic. It queues and pauses what it hands over through {@link QueueMoves}.
 */
final class Submission {
  private final QueueStore table;
  private final String owner;
  private final HandleMap handles;
  private final ChangeFeed feed;
  private final RequestSecrets secrets;
  private final QueueMoves moves;
  private final KeptFileAnswer keptFiles;

  Submission(QueueStore table, String owner, HandleMap handles, ChangeFeed feed, RequestSecrets secrets, QueueMoves moves,
      KeptFileAnswer keptFiles) {
    this.table = table;
    this.owner = owner;
    this.handles = handles;
    this.feed = feed;
    this.secrets = secrets;
    this.moves = moves;
    this.keptFiles = keptFiles;
  }

  /**
   * Adds a download queued and claimed by nobody, for whichever process runs the queue (a daemon,
   * any worker of a fleet); this one never starts it. An unfinished entry for the same URL and
   * target is queued again if it was paused or failed, and returned instead.
   */
  QueuedDownload enqueue(DownloadRequest request) {
    Path file = request.file().orElse(null);
    Optional<QueueEntry> unfinished = table.matching(request.uri().toString(), file, request.directory()).stream()
        .filter(e -> e.state() != DownloadState.COMPLETED).findFirst();
    if (unfinished.isEmpty()) {
      return handles.handle(table.addAll(List.of(new NewEntry(RequestCodec.urls(request), file, request.directory(),
          RequestCodec.options(request), request.priority(), null, DownloadState.QUEUED, request.headers()))).get(0));
    }
    QueueEntry e = unfinished.get();
    keepHeaders(e.id(), request);
    if (e.state() == DownloadState.PAUSED || e.state() == DownloadState.FAILED) {
      table.setState(e.id(), DownloadState.QUEUED, null, null);
      e = table.get(e.id()).orElse(e);
    }
    return handles.handle(e);
  }

  QueuedDownload submit(DownloadRequest request, boolean paused) {
    return submit(request, newest(request), paused);
  }

  /**
   * The entry a request continues, if any: the newest for the same URL and target, else (another
   * URL for a file being downloaded: a refreshed link, which the pass proves the same file) the
   * unfinished one writing its file.
   */
  private Optional<QueueEntry> newest(DownloadRequest request) {
    Path file = request.file().orElse(null);
    Optional<QueueEntry> newest = table.matching(request.uri().toString(), file, request.directory()).stream().findFirst();
    return newest.isEmpty() && file != null ? table.unfinishedWithFile(file) : newest;
  }

  private QueuedDownload submit(DownloadRequest request, Optional<QueueEntry> newest, boolean paused) {
    if (newest.isPresent() && !request.overwrite() && KeptFileAnswer.answersFor(newest.get())) {
      Optional<DownloadResult> kept = alreadyComplete(newest.get());
      if (kept.isPresent()) {
        QueuedDownload h = handles.handle(newest.get());
        keptFiles.answer(h, kept.get(), request.checksum());
        return h;
      }
    }
    if (newest.isPresent() && newest.get().state() != DownloadState.COMPLETED) {
      return continueEntry(newest.get(), request, paused);
    }
    return added(request, table.addAll(List.of(newEntry(request, paused))).get(0), paused);
  }

  /**
   * Submits each request as {@link #submit} would, in order; those that add a new entry share
   * one store transaction (a multicall of a thousand adds paid a commit for each, a third of an
   * add's cost). A request the queue or an earlier request of the list may already hold (the same
   * URL and target, or its file) is submitted alone once those before it are added, so it meets
   * them as a second submit would.
   */
  List<QueuedDownload> submitAll(List<DownloadRequest> requests, boolean paused) {
    List<QueuedDownload> out = new ArrayList<>();
    List<DownloadRequest> pending = new ArrayList<>();
    // what the pending requests will hold once added: URL, file and folder; and files named
    Set<List<Object>> pendingTargets = new HashSet<>();
    Set<Path> pendingFiles = new HashSet<>();
    for (DownloadRequest r : requests) {
      Path file = r.file().orElse(null);
      List<Object> target = Arrays.asList(r.uri().toString(), file, r.directory());
      boolean repeats = pendingTargets.contains(target) || (file != null && pendingFiles.contains(file));
      // a repeat is looked up once those before it are added: it continues one of them
      Optional<QueueEntry> held = repeats ? Optional.empty() : newest(r);
      if (repeats || held.isPresent()) {
        out.addAll(addTogether(pending, paused));
        pendingTargets.clear();
        pendingFiles.clear();
        out.add(repeats ? submit(r, paused) : submit(r, held, paused));
        continue;
      }
      pending.add(r);
      pendingTargets.add(target);
      if (file != null) {
        pendingFiles.add(file);
      }
    }
    out.addAll(addTogether(pending, paused));
    return out;
  }

  /** New entries for {@code requests}, none of which the queue holds, in one write; empties the list. */
  private List<QueuedDownload> addTogether(List<DownloadRequest> requests, boolean paused) {
    if (requests.isEmpty()) {
      return List.of();
    }
    List<QueueEntry> entries = table.addAll(requests.stream().map(r -> newEntry(r, paused)).toList());
    List<QueuedDownload> out = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      out.add(added(requests.get(i), entries.get(i), paused));
    }
    requests.clear();
    return out;
  }

  /**
   * A new entry, claimed by this process at once (a process running the whole queue, the desktop
   * app, must not take it first); written paused when asked, so that no loop, this process's or
   * another's, can start it before a resume.
   */
  private NewEntry newEntry(DownloadRequest request, boolean paused) {
    return new NewEntry(RequestCodec.urls(request), request.file().orElse(null), request.directory(),
        RequestCodec.options(request), request.priority(), owner, paused ? DownloadState.PAUSED : DownloadState.QUEUED,
        request.headers());
  }

  /**
   * The headers of a request that continues entry {@code id} replace the stored ones (a browser's
   * second click brings fresh cookies); a request without headers keeps them (the same URL
   * submitted again from a terminal must not lose a browser's cookies). Before the entry is queued
   * again: whoever starts it then finds them.
   */
  private void keepHeaders(long id, DownloadRequest request) {
    if (!request.headers().isEmpty()) {
      table.setHeaders(id, request.headers());
    }
  }

  private QueuedDownload added(DownloadRequest request, QueueEntry e, boolean paused) {
    feed.addedHere(e.id());
    secrets.keep(e.id(), request);
    return paused ? addedPaused(handles.handle(e)) : moves.queueHere(handles.handle(e));
  }

  /** A handle whose entry is recorded paused: it says so, and its result fails as a paused one's. */
  private QueuedDownload addedPaused(QueuedDownload h) {
    h.submitted();
    h.queued();
    moves.transition(h, DownloadState.PAUSED);
    h.result().completeExceptionally(new DownloadPausedException("added paused"));
    return h;
  }

  private QueuedDownload continueEntry(QueueEntry e, DownloadRequest request, boolean paused) {
    QueuedDownload h = handles.handle(e);
    if (handles.isRunning(e.id())) {
      return paused ? pause(h) : h;
    }
    if (table.held(e) && !e.owner().equals(owner)) {
      // another process drives it: this one must not, and says so at once (or asks it to pause)
      QueuedDownload refused = handles.detached(e, DownloadState.ACTIVE);
      refused.submitted();
      refused.result().completeExceptionally(HeldElsewhere.of(e));
      return paused ? pause(refused) : refused;
    }
    keepHeaders(e.id(), request);
    // written paused, not queued and then paused: a queue runner could start it in between
    table.requeue(e.id(), RequestCodec.urls(request), RequestCodec.options(request), request.priority(), owner,
        paused ? DownloadState.PAUSED : DownloadState.QUEUED);
    secrets.keep(e.id(), request);
    table.get(h.id()).ifPresent(h::entry);
    return paused ? addedPaused(h) : moves.queueHere(h);
  }

  private QueuedDownload pause(QueuedDownload h) {
    moves.pause(h);
    return h;
  }

  /** The file of an entry {@link KeptFileAnswer} answers for, if still there and whole by its length: submitting it again fetches nothing. */
  private static Optional<DownloadResult> alreadyComplete(QueueEntry e) {
    try {
      if (e.target() != null && e.length() >= 0 && Files.size(e.target()) == e.length()) {
        return Optional.of(new DownloadResult(e.target(), e.length(), 0, e.length(), Duration.ZERO, 0));
      }
    } catch (IOException gone) {
      // deleted or unreadable since: download it again
    }
    return Optional.empty();
  }
}
