package dev.braid.rpc;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;

/**
 * Who a call comes from, as the secret's check sees it: the address its wrong secrets count
 * against ({@link GuessLimiter}), and what its connection has already shown: the secret or a key
 * ({@link Access.Grant}).
 * One per connection (a WebSocket, a local socket's client) or per request (HTTP). Thread-safe.
 */
final class Caller {
  /** The local socket's clients: this user's own programs, all under one name. */
  private static final String LOCAL = "local";

  private final String address;
  private volatile Access.Grant grant;

  private Caller(String address) {
    this.address = address;
  }

  /** A client of the TCP port: its IPv4 address, or its IPv6 address's /64. */
  static Caller at(SocketAddress source) {
    if (!(source instanceof InetSocketAddress inet) || inet.getAddress() == null) {
      return new Caller(String.valueOf(source));
    }
    InetAddress a = inet.getAddress();
    if (a instanceof Inet6Address) {
      // the /64: a host is handed a whole one, so per address it could guess without bound
      return new Caller(Arrays.toString(Arrays.copyOf(a.getAddress(), 8)) + "/64");
    }
    return new Caller(a.getHostAddress());
  }

  /** A client of the local socket. */
  static Caller local() {
    return new Caller(LOCAL);
  }

  String address() {
    return address;
  }

  /** Whether a call of this connection has carried the secret or a key. */
  boolean proven() {
    return grant != null;
  }

  /** What the last right token of this connection granted, or null. */
  Access.Grant grant() {
    return grant;
  }

  void prove(Access.Grant shown) {
    grant = shown;
  }
}
