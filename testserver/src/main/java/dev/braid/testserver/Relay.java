package dev.braid.testserver;

import java.io.IOException;
import java.net.Socket;

/** Copies bytes both ways between a proxy's client and its target until both directions end. */
final class Relay {
  private Relay() {}

  /** Blocks until the target's stream ends (the other direction gets a moment to finish). */
  static void run(Socket client, Socket target, String name) throws InterruptedException {
    Thread up = new Thread(() -> pump(client, target), name + "-up");
    up.setDaemon(true);
    up.start();
    pump(target, client);
    up.join(2_000);
  }

  /** Copies until end of stream, then half-closes the other side so it sees the end too. */
  private static void pump(Socket from, Socket to) {
    try {
      from.getInputStream().transferTo(to.getOutputStream());
      to.shutdownOutput();
    } catch (IOException e) {
      // one side closed; the other direction ends on its own
    }
  }
}
