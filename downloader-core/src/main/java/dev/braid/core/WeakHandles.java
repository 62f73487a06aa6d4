package dev.braid.core;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;

/**
 * Download handles by id, held weakly: while anyone holds a download's handle, every look-up
 * returns that same object, and a handle nobody holds is left to the collector (a batch of
 * 60,000 files kept every finished download's ~3 KiB handle and ran the heap full). The entries
 * of collected handles are dropped on the next change. Thread-safe; no thread of its own.
 *
 * <p>A map of our own rather than a weak-valued Caffeine cache: Caffeine's first cache in a
 * process costs tens of milliseconds of every command's start-up.
 */
final class WeakHandles {
  private final ConcurrentHashMap<Long, Handle> byId = new ConcurrentHashMap<>();
  private final ReferenceQueue<Download> collected = new ReferenceQueue<>();

  /** A weak reference that knows its id, so that its entry can go once it is cleared. */
  private static final class Handle extends WeakReference<Download> {
    final long id;

    Handle(long id, Download d, ReferenceQueue<Download> queue) {
      super(d, queue);
      this.id = id;
    }
  }

  /** The handle of {@code id}, or null when none is held. */
  Download get(long id) {
    Handle h = byId.get(id);
    return h == null ? null : h.get();
  }

  boolean contains(long id) {
    return get(id) != null;
  }

  /** The handle of {@code id}, made by {@code make} (at most once at a time per id) when none is held. */
  Download computeIfAbsent(long id, LongFunction<Download> make) {
    expunge();
    Download[] out = new Download[1];
    byId.compute(id, (k, h) -> {
      Download held = h == null ? null : h.get();
      if (held != null) {
        out[0] = held;
        return h;
      }
      out[0] = make.apply(id);
      return new Handle(id, out[0], collected);
    });
    return out[0];
  }

  /** Forgets {@code id}; returns the handle it had, or null. */
  Download remove(long id) {
    expunge();
    Handle h = byId.remove(id);
    return h == null ? null : h.get();
  }

  /** The handles held now. */
  List<Download> values() {
    List<Download> out = new ArrayList<>(byId.size());
    for (Handle h : byId.values()) {
      Download d = h.get();
      if (d != null) {
        out.add(d);
      }
    }
    return out;
  }

  private void expunge() {
    for (Reference<? extends Download> r = collected.poll(); r != null; r = collected.poll()) {
      Handle h = (Handle) r;
      byId.remove(h.id, h);
    }
  }
}
