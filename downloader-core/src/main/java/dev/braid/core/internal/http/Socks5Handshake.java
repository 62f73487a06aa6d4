package dev.braid.core.internal.http;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/**
 * The client side of a SOCKS5 {@code CONNECT} (RFC 1928) on a socket already connected to the
 * proxy, with username/password authentication (RFC 1929) when the proxy's URL had credentials.
 * Ours rather than the JDK's SOCKS socket because that one takes credentials only from the
 * JVM-global {@code Authenticator} or system properties: one {@code Braid} would set them for every
 * other client in the JVM.
 */
final class Socks5Handshake {
  private static final int VERSION = 5;
  private static final int NO_AUTHENTICATION = 0;
  private static final int USER_PASSWORD = 2;
  private static final int NO_ACCEPTABLE_METHOD = 0xFF;
  private static final int USER_PASSWORD_VERSION = 1;
  private static final int CONNECT = 1;

  private Socks5Handshake() {}

  /**
   * Asks {@code proxy}, at the other end of {@code socket}, to connect to {@code target}; returns
   * once the proxy relays, so the socket then speaks to the target.
   *
   * @throws ProxyAuthFailure when the proxy wants credentials the URL did not give, or refuses them
   * @throws ConnectException when the proxy could not reach the target
   */
  static void connect(Socket socket, ProxyPlan.Proxy proxy, InetSocketAddress target) throws IOException {
    // unbuffered: nothing past the proxy's last reply may be read, it belongs to the target's stream
    DataInputStream in = new DataInputStream(socket.getInputStream());
    OutputStream out = socket.getOutputStream();
    ProxyCredentials credentials = proxy.credentials();
    out.write(credentials == null ? new byte[] {VERSION, 1, NO_AUTHENTICATION}
        : new byte[] {VERSION, 2, NO_AUTHENTICATION, USER_PASSWORD});
    out.flush();
    expectVersion(in, VERSION, proxy);
    int method = in.readUnsignedByte();
    if (method == USER_PASSWORD && credentials != null) {
      authenticate(in, out, credentials, proxy);
    } else if (method == NO_ACCEPTABLE_METHOD) {
      throw new ProxyAuthFailure(credentials == null
          ? "the SOCKS5 proxy at " + proxy.where() + " requires authentication: give a user name and password in"
              + " the proxy URL (socks5://USER:PASSWORD@HOST:PORT)"
          : "the SOCKS5 proxy at " + proxy.where() + " accepts neither no authentication nor a user name and password");
    } else if (method != NO_AUTHENTICATION) {
      throw new SocketException("the SOCKS5 proxy at " + proxy.where() + " chose authentication method " + method
          + ", which Braid did not offer");
    }
    out.write(connectRequest(target));
    out.flush();
    expectVersion(in, VERSION, proxy);
    int reply = in.readUnsignedByte();
    in.readUnsignedByte(); // reserved
    skipAddress(in, proxy);
    in.readUnsignedShort(); // bound port: a client that only connects has no use for it
    if (reply != 0) {
      throw new ConnectException("the SOCKS5 proxy at " + proxy.where() + " could not connect to "
          + target.getHostString() + ":" + target.getPort() + ": " + reason(reply));
    }
  }

  /** RFC 1929: the proxy closes the connection after a refusal, so one try is all there is. */
  private static void authenticate(DataInputStream in, OutputStream out, ProxyCredentials c, ProxyPlan.Proxy proxy)
      throws IOException {
    byte[] user = c.user().getBytes(StandardCharsets.UTF_8);
    byte[] password = c.password().getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream b = new ByteArrayOutputStream(3 + user.length + password.length);
    b.write(USER_PASSWORD_VERSION);
    b.write(user.length);
    b.writeBytes(user);
    b.write(password.length);
    b.writeBytes(password);
    out.write(b.toByteArray());
    out.flush();
    expectVersion(in, USER_PASSWORD_VERSION, proxy);
    if (in.readUnsignedByte() != 0) {
      throw new ProxyAuthFailure("the SOCKS5 proxy at " + proxy.where() + " refused the user name and password");
    }
  }

  /** One write: the request goes out in one segment. A resolved target is sent as its address (names resolved here). */
  private static byte[] connectRequest(InetSocketAddress target) {
    ByteArrayOutputStream b = new ByteArrayOutputStream(22);
    b.write(VERSION);
    b.write(CONNECT);
    b.write(0);
    if (target.isUnresolved()) {
      byte[] name = target.getHostString().getBytes(StandardCharsets.US_ASCII);
      b.write(3);
      b.write(name.length);
      b.writeBytes(name);
    } else {
      b.write(target.getAddress() instanceof Inet4Address ? 1 : 4);
      b.writeBytes(target.getAddress().getAddress());
    }
    b.write(target.getPort() >> 8);
    b.write(target.getPort() & 0xFF);
    return b.toByteArray();
  }

  private static void expectVersion(DataInputStream in, int version, ProxyPlan.Proxy proxy) throws IOException {
    int v = in.readUnsignedByte();
    if (v != version) {
      throw new SocketException("the proxy at " + proxy.where() + " does not speak SOCKS5 (answered version " + v + ")");
    }
  }

  private static void skipAddress(DataInputStream in, ProxyPlan.Proxy proxy) throws IOException {
    int type = in.readUnsignedByte();
    int length = switch (type) {
      case 1 -> 4;
      case 4 -> 16;
      case 3 -> in.readUnsignedByte();
      default -> throw new SocketException("the SOCKS5 proxy at " + proxy.where() + " sent address type " + type);
    };
    in.readFully(new byte[length]);
  }

  /** The reply codes of RFC 1928, section 6. */
  private static String reason(int reply) {
    return switch (reply) {
      case 1 -> "general failure";
      case 2 -> "not allowed by the proxy's rules";
      case 3 -> "network unreachable";
      case 4 -> "host unreachable";
      case 5 -> "connection refused";
      case 6 -> "TTL expired";
      case 7 -> "command not supported";
      case 8 -> "address type not supported";
      default -> "reply " + reply;
    };
  }
}
