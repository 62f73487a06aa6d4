package dev.braid.testserver;

import java.io.DataInputStream;
import java.io.IOException;
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
 * A SOCKS5 relay on 127.0.0.1 (RFC 1928) that knows only what a download needs: no
 * authentication and {@code CONNECT}, to an IPv4, IPv6 or domain-name target. Anything else is
 * refused with the reply the RFC names. Records the {@code host:port} of each relayed connection.
 */
public final class Socks5Proxy implements AutoCloseable {
  private static final int VERSION = 5;
  private static final int NO_AUTHENTICATION = 0;
  private static final int NO_ACCEPTABLE_METHOD = 0xFF;
  private static final int CONNECT = 1;
  private static final int SUCCEEDED = 0;
  private static final int CONNECTION_REFUSED = 5;
  private static final int COMMAND_NOT_SUPPORTED = 7;
  private static final int ADDRESS_TYPE_NOT_SUPPORTED = 8;

  private final ServerSocket listener;
  private final List<String> connections = new CopyOnWriteArrayList<>();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();

  private Socks5Proxy(ServerSocket listener) {
    this.listener = listener;
    Thread acceptor = new Thread(this::acceptLoop, "socks5-proxy-" + listener.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Binds an ephemeral port on 127.0.0.1. */
  public static Socks5Proxy start() throws IOException {
    ServerSocket s = new ServerSocket();
    s.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0));
    return new Socks5Proxy(s);
  }

  /** {@code socks5://127.0.0.1:PORT}. */
  public String url() {
    return "socks5://127.0.0.1:" + listener.getLocalPort();
  }

  /** The {@code host:port} of each connection relayed, in order. */
  public List<String> connections() {
    return List.copyOf(connections);
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        open.add(client);
        Thread t = new Thread(() -> serve(client), "socks5-proxy-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      DataInputStream in = new DataInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      if (!negotiate(in, out)) {
        return;
      }
      if (in.readUnsignedByte() != VERSION) {
        return;
      }
      int command = in.readUnsignedByte();
      in.readUnsignedByte(); // reserved
      String host = readAddress(in);
      if (host == null) {
        reply(out, ADDRESS_TYPE_NOT_SUPPORTED);
        return;
      }
      int port = in.readUnsignedShort();
      if (command != CONNECT) {
        reply(out, COMMAND_NOT_SUPPORTED);
        return;
      }
      Socket target;
      try {
        target = new Socket(host, port);
      } catch (IOException e) {
        reply(out, CONNECTION_REFUSED);
        return;
      }
      try (target) {
        open.add(target);
        connections.add(host + ":" + port);
        reply(out, SUCCEEDED);
        Relay.run(client, target, "socks5-proxy");
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      // the client or the target went away: the relay ends
    } finally {
      open.remove(client);
    }
  }

  /** The greeting: version, then the methods the client offers; only "no authentication" is accepted. */
  private static boolean negotiate(DataInputStream in, OutputStream out) throws IOException {
    if (in.readUnsignedByte() != VERSION) {
      return false;
    }
    byte[] methods = new byte[in.readUnsignedByte()];
    in.readFully(methods);
    for (byte m : methods) {
      if (m == NO_AUTHENTICATION) {
        out.write(new byte[] {VERSION, NO_AUTHENTICATION});
        out.flush();
        return true;
      }
    }
    out.write(new byte[] {VERSION, (byte) NO_ACCEPTABLE_METHOD});
    out.flush();
    return false;
  }

  /** An IPv4 (1), domain name (3) or IPv6 (4) address; null for another type. */
  private static String readAddress(DataInputStream in) throws IOException {
    int type = in.readUnsignedByte();
    switch (type) {
      case 1, 4 -> {
        byte[] a = new byte[type == 1 ? 4 : 16];
        in.readFully(a);
        return InetAddress.getByAddress(a).getHostAddress();
      }
      case 3 -> {
        byte[] name = new byte[in.readUnsignedByte()];
        in.readFully(name);
        return new String(name, StandardCharsets.US_ASCII);
      }
      default -> {
        return null;
      }
    }
  }

  /** A reply with a zero IPv4 bound address: clients that only CONNECT do not use it. */
  private static void reply(OutputStream out, int status) throws IOException {
    out.write(new byte[] {VERSION, (byte) status, 0, 1, 0, 0, 0, 0, 0, 0});
    out.flush();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : open) {
      s.close();
    }
  }
}
