package dev.braid.core.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;

/**
 * One open GET: the status and headers have arrived, the body is still on the wire. The owner
 * reads {@link #body()} and then either {@link #close()}s a fully read exchange (the connection
 * goes back to the pool) or {@link #abort()}s one it stops early (the connection, or the HTTP/2
 * stream, is dropped rather than drained). {@link #abort()} may be called from another thread to
 * unblock a reader.
 */
public final class Exchange implements AutoCloseable {
  private final OpenResponse response;
  private final URI finalUri;
  private final Protocol protocol;

  Exchange(OpenResponse response, URI finalUri, Protocol protocol) {
    this.response = response;
    this.finalUri = finalUri;
    this.protocol = protocol;
  }

  /** The HTTP version it travels over. */
  public Protocol protocol() {
    return protocol;
  }

  public int status() {
    return response.status();
  }

  /** The URI that answered, after redirects. */
  public URI finalUri() {
    return finalUri;
  }

  /** The first value of a header, or null. */
  public String header(String name) {
    return response.header(name);
  }

  /** Every value of a header, in the order received; empty when there is none. */
  public List<String> headers(String name) {
    return response.headers(name);
  }

  /** The declared body length, or -1. */
  public long contentLength() {
    return response.contentLength();
  }

  /** The body stream; empty for a response without one. */
  public InputStream body() throws IOException {
    return response.body();
  }

  /** Drops the connection without reading the rest of the body. Thread-safe, idempotent. */
  public void abort() {
    response.abort();
  }

  /** Releases a fully read exchange so its connection can be reused. */
  @Override
  public void close() {
    response.close();
  }
}
