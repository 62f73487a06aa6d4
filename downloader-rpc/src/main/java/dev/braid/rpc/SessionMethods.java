package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.braid.core.Version;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * getVersion, getSessionInfo, saveSession, shutdown and forceShutdown. Braid records the queue
 * in its state database as it changes, so saveSession has nothing left to write; shutdown asks
 * the owner of the server to stop (it pauses the running downloads and records their progress).
 */
final class SessionMethods {
  private final String sessionId;
  private final Runnable shutdown;

  SessionMethods(Runnable shutdown) {
    byte[] id = new byte[20];
    new SecureRandom().nextBytes(id);
    this.sessionId = HexFormat.of().formatHex(id);
    this.shutdown = shutdown;
  }

  void addTo(Dispatcher d) {
    d.add("aria2.getVersion", p -> {
      // aria2's names for what this server does: aria2.addMetalink is served
      var features = NODES.arrayNode().add("HTTPS").add("Message Digest").add("Metalink");
      var v = NODES.objectNode().put("version", Version.get());
      v.set("enabledFeatures", features);
      return v;
    });
    d.add("aria2.getSessionInfo", p -> NODES.objectNode().put("sessionId", sessionId));
    d.add("aria2.saveSession", p -> TextNode.valueOf("OK"));
    for (String name : new String[] {"aria2.shutdown", "aria2.forceShutdown"}) {
      d.add(name, p -> {
        shutdown.run();
        return TextNode.valueOf("OK");
      });
    }
  }
}
