package dev.braid.core;

/** A listener's registration; {@link #close()} stops further calls (one in progress may still finish). */
@FunctionalInterface
public interface Registration extends AutoCloseable {
  @Override
  void close();
}
