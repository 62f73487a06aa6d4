package dev.braid.core.internal.transfer;

import dev.braid.core.UrlRefresher;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks a download's {@link UrlRefresher} for a new URL once its link expired, within the request's
 * bounds: how many times per download, and how long one answer may take. The refresher runs on a
 * daemon thread of its own, started per call, so that a hung one cannot hold the driver past the
 * timeout; at the timeout the thread is interrupted and left to end (it cannot keep the JVM up).
 * Used by the driver thread only.
 */
final class LinkRefresh {
  /** The statuses of an expired link: the ranges of a file that was being served are now refused. */
  static final Set<Integer> EXPIRED = Set.of(401, 403, 404, 410);

  /** What one ask gave: a new URL, or why there is none. */
  record Answer(URI uri, String why) {}

  private final UrlRefresher refresher;
  private final int max;
  private final Duration timeout;
  private int asked;

  LinkRefresh(UrlRefresher refresher, int max, Duration timeout) {
    this.refresher = refresher;
    this.max = max;
    this.timeout = timeout;
  }

  /** Asks for a URL to replace {@code expired}, which answered {@code status}. */
  Answer ask(URI expired, int status) {
    if (asked >= max) {
      return new Answer(null, "the URL refresher was asked " + asked + " times already (the most for one download)");
    }
    asked++;
    CompletableFuture<Optional<URI>> answer = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        answer.complete(refresher.refresh(expired, status));
      } catch (Exception | Error e) {
        answer.completeExceptionally(e);
      }
    }, "braid-url-refresh");
    t.setDaemon(true);
    t.start();
    try {
      Optional<URI> uri = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (uri == null || uri.isEmpty()) {
        return new Answer(null, "the URL refresher gave no new URL");
      }
      if (uri.get().equals(expired)) {
        return new Answer(null, "the URL refresher gave the same URL again");
      }
      return new Answer(uri.get(), null);
    } catch (TimeoutException e) {
      t.interrupt();
      return new Answer(null, "the URL refresher gave no answer within " + timeout.toMillis() / 1000.0 + " s");
    } catch (ExecutionException e) {
      return new Answer(null, "the URL refresher failed: " + e.getCause().getMessage());
    } catch (InterruptedException e) {
      t.interrupt();
      Thread.currentThread().interrupt();
      return new Answer(null, "interrupted while the URL refresher was asked");
    }
  }
}
