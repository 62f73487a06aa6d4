package dev.braid.testserver;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A SOCKS5 relay on 127.0.0.1 (RFC 1928) that knows only what a download needs: no
 * authentication, or when {@link #requiring} username/password authentication (RFC 1929) and
 * nothing else, and {@code CONNECT}, to an IPv4, IPv6 or domain-name target. Anything else is
 * refused with the reply the RFC names. Records the {@code host:port} of each relayed connection
 * and counts refused authentications.
 */
public final class Socks5Proxy extends LoopbackProxy {
  private static final int VERSION = 5;
  private static final int NO_AUTHENTICATION = 0;
  private static final int USER_PASSWORD = 2;
  private static final int USER_PASSWORD_VERSION = 1;
  private static final int NO_ACCEPTABLE_METHOD = 0xFF;
  private static final int CONNECT = 1;
  private static final int SUCCEEDED = 0;
  private static final int CONNECTION_REFUSED = 5;
  private static final int COMMAND_NOT_SUPPORTED = 7;
  private static final int ADDRESS_TYPE_NOT_SUPPORTED = 8;

  private final List<String> connections = new CopyOnWriteArrayList<>();
  private final AtomicInteger refusals = new AtomicInteger();
  /** The required user name and password, or null when no authentication is required. */
  private final String user;
  private final String password;

  private Socks5Proxy(String user, String password) throws IOException {
    super("socks5-proxy");
    this.user = user;
    this.password = password;
  }

  /** Binds an ephemeral port on 127.0.0.1. */
  public static Socks5Proxy start() throws IOException {
    return new Socks5Proxy(null, null);
  }

  /** Like {@link #start()}, but a client must authenticate with {@code user} and {@code password} (RFC 1929). */
  public static Socks5Proxy requiring(String user, String password) throws IOException {
    return new Socks5Proxy(user, password);
  }

  /** {@code socks5://127.0.0.1:PORT}. */
  public String url() {
    return "socks5://127.0.0.1:" + port();
  }

  /** {@code socks5://USERINFO@127.0.0.1:PORT}: {@code userInfo} is used as given (already encoded). */
  public String url(String userInfo) {
    return "socks5://" + userInfo + "@127.0.0.1:" + port();
  }

  /**
   * How many clients were turned away at authentication: wrong credentials, or none offered when
   * they are required.
   */
  public int refusals() {
    return refusals.get();
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

  /**
   * The greeting: version, then the methods the client offers. The one method this relay wants
   * (no authentication, or username/password when required) is chosen if offered.
   */
  private boolean negotiate(DataInputStream in, OutputStream out) throws IOException {
    if (in.readUnsignedByte() != VERSION) {
      return false;
    }
    byte[] methods = new byte[in.readUnsignedByte()];
    in.readFully(methods);
    int wanted = user == null ? NO_AUTHENTICATION : USER_PASSWORD;
    for (byte m : methods) {
      if (m == wanted) {
        out.write(new byte[] {VERSION, (byte) wanted});
        out.flush();
        return wanted == NO_AUTHENTICATION || authenticate(in, out);
      }
    }
    refusals.incrementAndGet();
    out.write(new byte[] {VERSION, (byte) NO_ACCEPTABLE_METHOD});
    out.flush();
    return false;
  }

  /** RFC 1929: version 1, the user name and the password, each after its length; status 0 accepts. */
  private boolean authenticate(DataInputStream in, OutputStream out) throws IOException {
    if (in.readUnsignedByte() != USER_PASSWORD_VERSION) {
      return false;
    }
    byte[] name = new byte[in.readUnsignedByte()];
    in.readFully(name);
    byte[] secret = new byte[in.readUnsignedByte()];
    in.readFully(secret);
    boolean ok = user.equals(new String(name, StandardCharsets.UTF_8))
        && password.equals(new String(secret, StandardCharsets.UTF_8));
    if (!ok) {
      refusals.incrementAndGet();
    }
    out.write(new byte[] {USER_PASSWORD_VERSION, (byte) (ok ? 0 : 1)});
    out.flush();
    return ok;
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
