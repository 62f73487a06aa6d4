package dev.braid.rpc;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Answers only requests whose {@code Host} names this server: DNS rebinding points a name the
 * attacker owns at 127.0.0.1, and the browser then treats the console and the RPC as that name's
 * origin. Allowed: {@code localhost} and loopback addresses; with {@code --rpc-listen-all} also any
 * IP address literal (a literal cannot be re-pointed) and this machine's own host name. A request
 * without {@code Host} (HTTP/1.0 tools) passes: browsers always send one. Others get 421.
 */
final class HostCheck implements HttpHandler {
  /**
   * An IPv4 dotted quad (each octet 0 to 255) or a bracketed IPv6 literal (a colon in it, and an
   * optional zone): only these reach InetAddress.getByName, which parses them and asks no DNS.
   */
  private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");
  private static final Pattern IPV6 = Pattern.compile("\\[[0-9a-f.]*:[0-9a-f:.]*(%[0-9a-z._~-]+)?]");

  private final HttpHandler next;
  private final boolean listenAll;
  private final Set<String> ownNames;

  HostCheck(HttpHandler next, boolean listenAll, Set<String> ownNames) {
    this.next = next;
    this.listenAll = listenAll;
    this.ownNames = ownNames;
  }

  /** This machine's host name, and its mDNS name, lower case: what a browser on the network may use with --rpc-listen-all. */
  static Set<String> machineNames() {
    try {
      String name = InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
      return Set.of(name, name + ".local");
    } catch (UnknownHostException e) {
      return Set.of();
    }
  }

  @Override
  public void handleRequest(HttpServerExchange ex) throws Exception {
    String host = ex.getRequestHeaders().getFirst(Headers.HOST);
    if (host == null || allowed(host)) {
      next.handleRequest(ex);
      return;
    }
    ex.setStatusCode(421);
    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
    ex.getResponseSender().send("braid: this server answers to localhost and its own addresses, not to the name '"
        + printable(host) + "' (a DNS-rebound name is refused); use " + ex.getRequestScheme() + "://127.0.0.1:PORT/\n",
        StandardCharsets.UTF_8);
  }

  /** Whether {@code hostHeader} (name or literal, with an optional port) names this server. */
  boolean allowed(String hostHeader) {
    String name = withoutPort(hostHeader.strip()).toLowerCase(Locale.ROOT);
    if (name.equals("localhost") || name.equals("localhost.")) {
      return true;
    }
    boolean literal = IPV4.matcher(name).matches() || IPV6.matcher(name).matches();
    if (!literal) {
      return listenAll && ownNames.contains(name);
    }
    try {
      // a literal: getByName parses it and never asks DNS
      InetAddress a = InetAddress.getByName(name.startsWith("[") ? name.substring(1, name.length() - 1) : name);
      return listenAll || a.isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static String withoutPort(String host) {
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end < 0 ? host : host.substring(0, end + 1);
    }
    int colon = host.indexOf(':');
    return colon < 0 ? host : host.substring(0, colon);
  }

  /** The header as it may be echoed in a text answer: printable ASCII, bounded. */
  private static String printable(String s) {
    String p = s.replaceAll("[^\\x20-\\x7e]", "?");
    return p.length() > 100 ? p.substring(0, 100) + "..." : p;
  }
}
