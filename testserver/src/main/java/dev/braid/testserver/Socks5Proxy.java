package dev.braid.testserver;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A SOCKS5 relay on 127.0.0.1 (RFC 1928) that knows only what a download needs: no
 * authentication and {@code CONNECT}, to an IPv4, IPv6 or domain-name target. Anything else is
 * refused with the reply the RFC names. Records the {@code host:port} of each relayed connection.
 */
public final class Socks5Proxy extends LoopbackProxy {
  private static final int VERSION = 5;
  private static final int NO_AUTHENTICATION = 0;
  private static final int NO_ACCEPTABLE_METHOD = 0xFF;
  private static final int CONNECT = 1;
  private static final int SUCCEEDED = 0;
  private static final int CONNECTION_REFUSED = 5;
  private static final int COMMAND_NOT_SUPPORTED = 7;
  private static final int ADDRESS_TYPE_NOT_SUPPORTED = 8;

  private final List<String> connections = new CopyOnWriteArrayList<>();

  private Socks5Proxy() throws IOException {
    super("socks5-proxy");
  }

  /** Binds an ephemeral port on 127.0.0.1. */
  public static Socks5Proxy start() throws IOException {
    return new Socks5Proxy();
  }

  /** {@code socks5://127.0.0.1:PORT}. */
  public String url() {
    return "socks5://127.0.0.1:" + port();
  }

  /** The {@code host:port} of each connection relayed, in order. */
  public List<String> connections() {
    return List.copyOf(connections);
  }

  @Override
  void serve(Socket client) throws IOException, InterruptedException {
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
      track(target);
      connections.add(host + ":" + port);
      reply(out, SUCCEEDED);
      Relay.run(client, target, "socks5-proxy");
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
}
