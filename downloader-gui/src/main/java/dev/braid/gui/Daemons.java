package dev.braid.gui;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.RemoteClient;
import java.nio.file.Path;
import java.util.Optional;

/** Finds the {@code braid daemon} that holds a state database's engine lock and connects the window to it. */
final class Daemons {
  private Daemons() {}

  /**
   * A connected client, or why there is none.
   *
   * @param client the daemon's client (it answered), or null
   * @param why what stands in the way, for the window's notice; null with a client
   */
  record Found(BraidClient client, String why) {}

  /** The daemon of {@code anchor} ({@link dev.braid.client.remote.StateAnchor}), asked once so that one that does not answer is not attached. Blocking. */
  static Found find(Path anchor) {
    Optional<DaemonLink.Endpoint> endpoint = DaemonLink.find(anchor);
    if (endpoint.isEmpty()) {
      return new Found(null, "does not answer: it announces no RPC port with a secret this window can read");
    }
    RemoteClient client = null;
    try {
      client = RemoteClient.connect(endpoint.get());
      client.counts();
      return new Found(client, null);
    } catch (ClientException e) {
      if (client != null) {
        client.close();
      }
      return new Found(null, "does not answer at port " + endpoint.get().port() + ": " + e.getMessage());
    }
  }
}
