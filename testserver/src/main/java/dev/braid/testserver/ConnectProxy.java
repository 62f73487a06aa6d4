package dev.braid.testserver;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP proxy on 127.0.0.1 that knows only {@code CONNECT host:port}: it opens a socket to the
 * target, answers 200 and relays bytes both ways until either side closes. Records each tunnel's
 * target and the request head it received (to check what a client sends a proxy).
 */
public final class ConnectProxy extends LoopbackProxy {
  private final List<String> tunnels = new CopyOnWriteArrayList<>();
  private final List<String> heads = new CopyOnWriteArrayList<>();

  private ConnectProxy() throws IOException {
    super("connect-proxy");
  }

  /** Binds an ephemeral port on 127.0.0.1. */
  public static ConnectProxy start() throws IOException {
    return new ConnectProxy();
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String url() {
    return "http://127.0.0.1:" + port();
  }

  /** The {@code host:port} of each tunnel opened, in order. */
  public List<String> tunnels() {
    return List.copyOf(tunnels);
  }

  /** The request heads received (request line and headers), in order. */
  public List<String> heads() {
    return List.copyOf(heads);
  }

  @Override
  void serve(Socket client) throws IOException, InterruptedException {
    String head = readHead(client.getInputStream());
    heads.add(head);
    String[] line = head.split("\r\n", 2)[0].split(" ");
    OutputStream out = client.getOutputStream();
    if (line.length < 3 || !line[0].equals("CONNECT")) {
      out.write("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      return;
    }
    int colon = line[1].lastIndexOf(':');
    try (Socket target = new Socket(line[1].substring(0, colon), Integer.parseInt(line[1].substring(colon + 1)))) {
      track(target);
      tunnels.add(line[1]);
      out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Relay.run(client, target, "connect-proxy");
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int state = 0;
    while (state < 4) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("closed before the end of the head");
      }
      b.write(c);
      state = (c == '\r' && state % 2 == 0) || (c == '\n' && state % 2 == 1) ? state + 1 : 0;
    }
    return b.toString(StandardCharsets.US_ASCII);
  }
}
