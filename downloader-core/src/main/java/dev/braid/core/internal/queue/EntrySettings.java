package dev.braid.core.internal.queue;

import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageRetry;
import dev.braid.core.internal.transfer.DownloadJob;
import dev.braid.store.QueueEntry;
import dev.braid.store.QueueStore;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A download's settings changed after its submission: its URL, mirrors, headers, proxy, rate
 * limit, retry policy and priority, each written to its entry (a URL, headers and mirrors checked
 * as a request's are). A run here moves to a new URL, headers or rate limit at once; mirrors and a
 * proxy change only while it does not run.
 *
 * <p>Threads: the callers' (the public API's {@link QueuedDownload} actions). Locks: the store
 * makes each write atomic; a URL, header, mirror or proxy change holds the handle's
 * {@code lifecycle} lock, as a launch and a pause do, so that it sees the download either running
 * or not, never starting.
 */
final class EntrySettings {
  private final QueueStore table;
  private final HandleMap handles;
  private final RequestSecrets secrets;
  private final SlotLoop loop;

  EntrySettings(QueueStore table, HandleMap handles, RequestSecrets secrets, SlotLoop loop) {
    this.table = table;
    this.handles = handles;
    this.secrets = secrets;
    this.loop = loop;
  }

  void rateLimit(QueuedDownload h, long bytesPerSecond) {
    QueueEntry e = table.get(h.id()).orElse(h.entry());
    Map<String, String> options = new LinkedHashMap<>(e.options());
    options.put("rate_limit", Long.toString(bytesPerSecond));
    table.updateOptions(h.id(), options);
    DownloadJob j = h.job();
    if (j != null && handles.isRunning(h.id())) {
      j.rateLimit(bytesPerSecond);
    }
  }

  /** {@code h}'s own retry policy from now on: a running download's ends by it too. */
  void outageRetry(QueuedDownload h, OutageRetry policy) {
    QueueEntry e = table.get(h.id()).orElse(h.entry());
    Map<String, String> options = new LinkedHashMap<>(e.options());
    options.put(RequestCodec.RETRY, policy.text());
    table.updateOptions(h.id(), options);
    table.get(h.id()).ifPresent(h::entry);
  }

  /** The URL {@code h} continues from; a running download moves to it at once, another when it next runs. */
  void changeUrl(QueuedDownload h, URI uri) throws InvalidRequestException {
    DownloadRequest checked = DownloadRequest.builder(uri.toString()).build();
    synchronized (h.lifecycle) {
      QueueEntry e = table.get(h.id()).orElse(h.entry());
      List<String> urls = new ArrayList<>(e.urls());
      urls.set(0, checked.uri().toString());
      QueuedDownload local = handles.running(h.id());
      Path file = local != null && local.job().target().isPresent() ? local.job().target().get()
          : e.target() != null ? e.target() : e.file();
      if (file == null && local == null) {
        // never started: no bytes to prove the new URL against, it simply takes its place
        table.updateUrls(h.id(), urls);
        table.get(h.id()).ifPresent(h::entry);
        return;
      }
      if (file == null) {
        throw new InvalidRequestException("#" + h.id() + " has no file yet to continue; submit the new URL instead");
      }
      if (local != null) {
        local.job().changeUrl(checked.uri());
      }
      table.changeUrls(h.id(), urls, file);
      table.get(h.id()).ifPresent(h::entry);
    }
  }

  /**
   * Headers for {@code h}, checked as a request's are: the store keeps them for every later run;
   * a run here moves to them at once (its connections restart).
   */
  void headers(QueuedDownload h, Map<String, String> headers) throws InvalidRequestException {
    DownloadRequestBuilder b = DownloadRequest.builder(h.url());
    headers.forEach(b::header);
    Map<String, String> checked = b.build().headers();
    synchronized (h.lifecycle) {
      table.setHeaders(h.id(), checked);
      QueuedDownload local = handles.running(h.id());
      if (local != null) {
        local.job().headers(checked);
      }
    }
  }

  void mirrors(QueuedDownload h, List<String> mirrors) throws InvalidRequestException {
    synchronized (h.lifecycle) {
      if (handles.isRunning(h.id())) {
        throw new IllegalStateException("the mirrors of a running download cannot change: pause it first");
      }
      QueueEntry e = table.get(h.id()).orElse(h.entry());
      DownloadRequest checked = DownloadRequest.builder(e.url()).mirrors(mirrors).build();
      table.updateUrls(h.id(), RequestCodec.urls(checked));
      table.get(h.id()).ifPresent(h::entry);
    }
  }

  /** A checked proxy setting for {@code h}'s next run: the store keeps it without credentials, this process with them. */
  void proxy(QueuedDownload h, String url) {
    synchronized (h.lifecycle) {
      if (handles.isRunning(h.id())) {
        throw new IllegalStateException("the proxy of a running download cannot change: pause it first");
      }
      QueueEntry e = table.get(h.id()).orElse(h.entry());
      table.updateOptions(h.id(), DownloadProxy.into(e.options(), url));
      secrets.proxy(h.id(), url);
      table.get(h.id()).ifPresent(h::entry);
    }
  }

  void priority(QueuedDownload h, int priority) {
    table.updatePriority(h.id(), priority);
    table.get(h.id()).ifPresent(h::entry);
    loop.changed();
  }
}
