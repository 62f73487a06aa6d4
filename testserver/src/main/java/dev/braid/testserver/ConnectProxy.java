package dev.braid.testserver;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP proxy on 127.0.0.1 that knows only {@code CONNECT host:port}: it opens a socket to the
 * target, answers 200 and relays bytes both ways until either side closes. Records each tunnel's
 * target and the request head it received (to check what a client sends a proxy).
 */
public final class ConnectProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final List<String> tunnels = new CopyOnWriteArrayList<>();
  private final List<String> heads = new CopyOnWriteArrayList<>();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();

  private ConnectProxy(ServerSocket listener) {
    this.listener = listener;
    Thread acceptor = new Thread(this::acceptLoop, "connect-proxy-" + listener.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Binds an ephemeral port on 127.0.0.1. */
  public static ConnectProxy start() throws IOException {
    ServerSocket s = new ServerSocket();
    s.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0));
    return new ConnectProxy(s);
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String url() {
    return "http://127.0.0.1:" + listener.getLocalPort();
  }

  /** The {@code host:port} of each tunnel opened, in order. */
  public List<String> tunnels() {
    return List.copyOf(tunnels);
  }

  /** The request heads received (request line and headers), in order. */
  public List<String> heads() {
    return List.copyOf(heads);
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        open.add(client);
        Thread t = new Thread(() -> serve(client), "connect-proxy-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
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
        open.add(target);
        tunnels.add(line[1]);
        out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Relay.run(client, target, "connect-proxy");
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      // the client or the target went away: the tunnel ends
    } finally {
      open.remove(client);
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

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : open) {
      s.close();
    }
  }
}
