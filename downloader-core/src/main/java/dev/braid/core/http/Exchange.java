package dev.braid.core.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;

/**
 * One open GET: the status and headers have arrived, the body is still on the wire. The owner
 * reads {@link #body()} and then either {@link #close()}s a fully read exchange (the connection
 * goes back to the pool) or {@link #abort()}s one it stops early (the connection is dropped rather
 * than drained). {@link #abort()} may be called from another thread to unblock a reader.
 */
public final class Exchange implements AutoCloseable {
  private final HttpGet request;
  private final ClassicHttpResponse response;
  private final URI finalUri;

  Exchange(HttpGet request, ClassicHttpResponse response, URI finalUri) {
    this.request = request;
    this.response = response;
    this.finalUri = finalUri;
  }

  public int status() {
    return response.getCode();
  }

  /** The URI that answered, after redirects. */
  public URI finalUri() {
    return finalUri;
  }

  /** The first value of a header, or null. */
  public String header(String name) {
    Header h = response.getFirstHeader(name);
    return h == null ? null : h.getValue();
  }

  /** The declared body length, or -1. */
  public long contentLength() {
    HttpEntity e = response.getEntity();
    return e == null ? -1 : e.getContentLength();
  }

  /** The body stream; empty for a response without one. */
  public InputStream body() throws IOException {
    HttpEntity e = response.getEntity();
    return e == null ? InputStream.nullInputStream() : e.getContent();
  }

  /** Drops the connection without reading the rest of the body. Thread-safe, idempotent. */
  public void abort() {
    request.cancel();
    closeQuietly();
  }

  /** Releases a fully read exchange so its connection can be reused. */
  @Override
  public void close() {
    closeQuietly();
  }

  private void closeQuietly() {
    try {
      response.close();
    } catch (IOException ignored) {
      // an aborted or broken connection is discarded by the pool either way
    }
  }
}
