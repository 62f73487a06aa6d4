package dev.braid.store;

import java.util.Optional;
import java.util.Set;

/**
 * The SQL parts of a {@link QueueStore#page} call, the same for every SQL store: which states (as
 * a list of literals: enum names only, so safe to write into a statement), the ORDER BY of the
 * page's direction, and the OFFSET a negative offset (counted from the end) becomes.
 *
 * @param states the states' names as {@code 'A', 'B'}, sorted
 * @param orderBy the ORDER BY list
 * @param offset the OFFSET to bind
 */
public record PageQuery(String states, String orderBy, long offset) {
  /**
   * The parts of {@code page(states, startOrder, offset, limit)}; empty when the page is (no
   * states, no room).
   *
   * @param states the states to list
   * @param startOrder start order rather than oldest first
   * @param offset entries to skip, or a negative position counted from the end
   * @param limit the most entries of the page
   * @return the statement's parts, or empty when the page is empty
   */
  public static Optional<PageQuery> of(Set<DownloadState> states, boolean startOrder, long offset, int limit) {
    if (states.isEmpty() || limit <= 0) {
      return Optional.empty();
    }
    boolean backwards = offset < 0;
    String dir = backwards ? " DESC" : "";
    String order = startOrder ? "priority" + (backwards ? "" : " DESC") + ", id" + dir : "id" + dir;
    String in = String.join(", ", states.stream().sorted().map(st -> "'" + st.name() + "'").toList());
    return Optional.of(new PageQuery(in, order, backwards ? -offset - 1 : offset));
  }
}
