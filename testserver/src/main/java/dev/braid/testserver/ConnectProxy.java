package dev.braid.testserver;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy on 127.0.0.1. {@code CONNECT host:port} opens a socket to the target, answers 200
 * and relays bytes both ways until either side closes; an absolute-form {@code GET http://...}
 * is forwarded to its target in origin form, without the proxy's own headers, one request per
 * connection. Optionally requires Basic credentials ({@code Proxy-Authorization}), answering
 * 407 with a challenge on the same connection otherwise. Records each tunnel's target, each
 * request head it received (to check what a client sends a proxy) and the 407s it sent.
 */
public final class ConnectProxy extends LoopbackProxy {
  private final List<String> tunnels = new CopyOnWriteArrayList<>();
  private final List<String> heads = new CopyOnWriteArrayList<>();
  private final AtomicInteger challenges = new AtomicInteger();
  /** The expected {@code Proxy-Authorization} value, or null when none is required. */
  private final String authorization;

  private ConnectProxy(String authorization) throws IOException {
    super("connect-proxy");
    this.authorization = authorization;
  }

  /** Binds an ephemeral port on 127.0.0.1. */
  public static ConnectProxy start() throws IOException {
    return new ConnectProxy(null);
  }

  /** Like {@link #start()}, but every request must carry Basic credentials {@code user}, {@code password}. */
  public static ConnectProxy requiring(String user, String password) throws IOException {
    return new ConnectProxy("Basic " + Base64.getEncoder()
        .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String url() {
    return "http://127.0.0.1:" + port();
  }

  /** {@code http://USERINFO@127.0.0.1:PORT}: {@code userInfo} is used as given (already encoded). */
  public String url(String userInfo) {
    return "http://" + userInfo + "@127.0.0.1:" + port();
  }

  /** How many requests were answered 407 Proxy Authentication Required. */
  public int challenges() {
    return challenges.get();
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
    OutputStream out = client.getOutputStream();
    String head = readHead(client.getInputStream());
    heads.add(head);
    // a refused request leaves the connection open for the client's answer to the challenge
    while (authorization != null && !authorization.equals(header(head, "Proxy-Authorization"))) {
      challenges.incrementAndGet();
      out.write(("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"braid-test\"\r\n"
          + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      head = readHead(client.getInputStream());
      heads.add(head);
    }
    String[] line = head.split("\r\n", 2)[0].split(" ");
    if (line.length == 3 && line[0].equals("GET") && line[1].startsWith("http://")) {
      forward(head, URI.create(line[1]), client);
      return;
    }
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

  /**
   * Sends one absolute-form request to its target in origin form, as a proxy does: the proxy's own
   * headers are consumed here, and {@code Connection: close} makes the response end with the
   * connection, which then closes towards the client too.
   */
  private void forward(String head, URI target, Socket client) throws IOException {
    StringBuilder request = new StringBuilder("GET ").append(target.getRawPath())
        .append(target.getRawQuery() == null ? "" : "?" + target.getRawQuery()).append(" HTTP/1.1\r\n");
    for (String h : head.split("\r\n")) {
      String name = h.contains(":") ? h.substring(0, h.indexOf(':')).trim().toLowerCase(Locale.ROOT) : "";
      if (!name.isEmpty() && !name.startsWith("proxy-") && !name.equals("connection")) {
        request.append(h).append("\r\n");
      }
    }
    request.append("Connection: close\r\n\r\n");
    try (Socket origin = new Socket(target.getHost(), target.getPort())) {
      track(origin);
      origin.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      origin.getInputStream().transferTo(client.getOutputStream());
    }
  }

  /** The value of the named header in {@code head} (any case), or null. */
  private static String header(String head, String name) {
    for (String h : head.split("\r\n")) {
      int colon = h.indexOf(':');
      if (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase(name)) {
        return h.substring(colon + 1).trim();
      }
    }
    return null;
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
