package dev.braid.interop;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Ports on 127.0.0.1 for the servers the tests start: a free one, and whether one accepts yet. */
final class LoopbackPorts {
  private LoopbackPorts() {}

  /** A port nothing listens on now (another process may take it before the server binds it). */
  static int free() throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress("127.0.0.1", 0));
      return s.getLocalPort();
    }
  }

  /** Whether a connection to {@code port} is accepted within half a second. */
  static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
