package dev.braid.core.internal.queue;

import dev.braid.core.InvalidRequestException;
import dev.braid.core.StateStoreException;
import dev.braid.store.StoreException;
import java.util.function.Supplier;

/** Runs a public call that touches the store, turning the state module's failure into {@link StateStoreException}. */
public final class StateCalls {
  private StateCalls() {}

  /** {@return what {@code call} read} */
  public static <T> T read(Supplier<T> call) {
    try {
      return call.get();
    } catch (StoreException e) {
      throw new StateStoreException(e.getMessage(), e);
    }
  }

  /** Runs {@code call}. */
  public static void run(Runnable call) {
    read(() -> {
      call.run();
      return null;
    });
  }

  /** A call that may refuse its arguments. */
  interface Checked {
    void run() throws InvalidRequestException;
  }

  /** Runs {@code call}, whose refusal of its arguments reaches the caller as it is. */
  static void checked(Checked call) throws InvalidRequestException {
    try {
      call.run();
    } catch (StoreException e) {
      throw new StateStoreException(e.getMessage(), e);
    }
  }
}
