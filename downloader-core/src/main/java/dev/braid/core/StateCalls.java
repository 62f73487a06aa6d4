package dev.braid.core;

import dev.braid.store.StoreException;
import java.util.function.Supplier;

/** Runs a public call that touches the store, turning the state module's failure into {@link StateStoreException}. */
final class StateCalls {
  private StateCalls() {}

  static <T> T read(Supplier<T> call) {
    try {
      return call.get();
    } catch (StoreException e) {
      throw new StateStoreException(e.getMessage(), e);
    }
  }

  static void run(Runnable call) {
    read(() -> {
      call.run();
      return null;
    });
  }
}
