package dev.braid.core;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Download handles by id, held weakly: while anyone holds a download's handle, every look-up
 * returns that same object, and a handle nobody holds is left to the collector (a batch of
 * 60,000 files kept every finished download's ~3 KiB handle and ran the heap full). A Caffeine
 * cache with weak values: the entries of collected handles go with its maintenance, which runs on
 * the calling threads. Thread-safe; no thread of its own.
 */
final class WeakHandles {
  private final Cache<Long, Download> byId = Caffeine.newBuilder().weakValues().executor(Runnable::run).build();

  /** The handle of {@code id}, or null when none is held. */
  Download get(long id) {
    return byId.getIfPresent(id);
  }

  boolean contains(long id) {
    return get(id) != null;
  }

  /** The handle of {@code id}, made by {@code make} (at most once at a time per id) when none is held. */
  Download computeIfAbsent(long id, LongFunction<Download> make) {
    return byId.get(id, k -> make.apply(k));
  }

  /** Forgets {@code id}; returns the handle it had, or null. */
  Download remove(long id) {
    return byId.asMap().remove(id);
  }

  /** The handles held now. */
  List<Download> values() {
    return List.copyOf(byId.asMap().values());
  }
}
