package dev.braid.cli;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.LocalClient;
import dev.braid.client.remote.DaemonLink;
import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.DownloadException;
import dev.braid.core.rules.Rules;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Picks, once per command, the client it works through: the daemon running its state database
 * when one does, else an engine this process builds. The command never asks which it got.
 */
final class ClientChoice {
  /** The engine a command builds when no daemon runs its database: its options applied, not built yet. */
  interface Engine {
    BraidBuilder builder() throws DownloadException;

    /** Called with the engine once built, before any work: a command announces what it serves (metrics). */
    default void built(Braid braid) {}
  }

  private ClientChoice() {}

  /**
   * The client for {@code caller}'s command on the database of {@code stateAnchor}: the daemon's
   * ({@link Caller#connect}), or, after {@link Caller#engineHere()}, a {@link LocalClient} over
   * {@code engine} under {@code rules}, which closing the client closes.
   */
  static BraidClient open(Caller caller, Path stateAnchor, Engine engine, Rules rules)
      throws DownloadException, ClientException {
    Optional<DaemonLink.Endpoint> daemon = caller.daemon(stateAnchor);
    if (daemon.isPresent()) {
      return caller.connect(daemon.get());
    }
    caller.engineHere();
    Braid braid = engine.builder().build();
    try {
      engine.built(braid);
    } catch (RuntimeException e) {
      braid.close();
      throw e;
    }
    return new LocalClient(braid, rules);
  }
}
