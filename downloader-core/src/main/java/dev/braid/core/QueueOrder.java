package dev.braid.core;

/** The order of a page of the queue ({@link Braid#downloads(java.util.Set, QueueOrder, long, int)}). */
public enum QueueOrder {
  /** Oldest first: the order downloads were submitted in. */
  OLDEST_FIRST,
  /** The order the queue starts them in: higher priority first, then older first. */
  START_ORDER
}
