package dev.braid.core.internal.transfer;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which mirror wrote which bytes of a download with piece hashes, so that a piece that fails its
 * hash is blamed on the mirror that served it. One entry per bounded request, recorded as it
 * starts (the driver may check a piece before the request that completes it ends), a later
 * request for the same bytes replacing the earlier; the entries of a verified piece are dropped.
 * Workers record, the driver asks; thread-safe.
 */
final class Provenance {
  private record Run(long to, MirrorSet.Mirror mirror) {}

  private final TreeMap<Long, Run> runs = new TreeMap<>();

  /** {@code mirror} writes {@code [from, to)} from now on. */
  synchronized void writes(long from, long to, MirrorSet.Mirror mirror) {
    if (to <= from) {
      return;
    }
    cut(from, to);
    runs.put(from, new Run(to, mirror));
  }

  /** The mirrors that wrote any byte of {@code [from, to)}. */
  synchronized Set<MirrorSet.Mirror> of(long from, long to) {
    Set<MirrorSet.Mirror> out = new LinkedHashSet<>();
    Map.Entry<Long, Run> before = runs.floorEntry(from);
    if (before != null && before.getValue().to() > from) {
      out.add(before.getValue().mirror());
    }
    runs.subMap(from, true, to, false).values().forEach(r -> out.add(r.mirror()));
    return out;
  }

  /** Forgets {@code [from, to)}: a verified piece, never blamed again. */
  synchronized void forget(long from, long to) {
    cut(from, to);
  }

  /** Removes {@code [from, to)} from every run, keeping the parts of runs outside it. */
  private void cut(long from, long to) {
    Map.Entry<Long, Run> before = runs.lowerEntry(from);
    if (before != null && before.getValue().to() > from) {
      Run r = before.getValue();
      runs.put(before.getKey(), new Run(from, r.mirror()));
      if (r.to() > to) {
        runs.put(to, new Run(r.to(), r.mirror()));
      }
    }
    Map<Long, Run> inside = runs.subMap(from, true, to, false);
    Map.Entry<Long, Run> last = inside.isEmpty() ? null : runs.floorEntry(to - 1);
    if (last != null && last.getKey() >= from && last.getValue().to() > to) {
      runs.put(to, new Run(last.getValue().to(), last.getValue().mirror()));
    }
    inside.clear();
  }
}
