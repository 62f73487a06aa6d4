package dev.braid.core.internal.http;

/** The HTTP version one request goes over. The ALPN names are what the store keeps per host. */
public enum Protocol {
  /** HTTP/1.1 on the classic client: one connection per range. */
  HTTP_1_1("http/1.1", "HTTP/1.1"),
  /** HTTP/2 on the async client: a stream of the host's one connection per range. */
  HTTP_2("h2", "HTTP/2");

  private final String alpn;
  private final String label;

  Protocol(String alpn, String label) {
    this.alpn = alpn;
    this.label = label;
  }

  /** The name TLS's ALPN gives it: {@code http/1.1} or {@code h2}. */
  public String alpn() {
    return alpn;
  }

  /** The protocol of an ALPN name, or null for another one. */
  public static Protocol ofAlpn(String name) {
    for (Protocol p : values()) {
      if (p.alpn.equals(name)) {
        return p;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return label;
  }
}
