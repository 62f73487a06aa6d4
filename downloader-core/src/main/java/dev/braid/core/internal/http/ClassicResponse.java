package dev.braid.core.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;

/** A response of the classic (HTTP/1.1, one connection per request at a time) client. */
final class ClassicResponse implements OpenResponse {
  private final HttpGet request;
  private final ClassicHttpResponse response;

  ClassicResponse(HttpGet request, ClassicHttpResponse response) {
    this.request = request;
    this.response = response;
  }

  @Override
  public int status() {
    return response.getCode();
  }

  @Override
  public String header(String name) {
    Header h = response.getFirstHeader(name);
    return h == null ? null : h.getValue();
  }

  @Override
  public List<String> headers(String name) {
    return Arrays.stream(response.getHeaders(name)).map(Header::getValue).toList();
  }

  @Override
  public long contentLength() {
    HttpEntity e = response.getEntity();
    return e == null ? -1 : e.getContentLength();
  }

  @Override
  public InputStream body() throws IOException {
    HttpEntity e = response.getEntity();
    return e == null ? InputStream.nullInputStream() : e.getContent();
  }

  @Override
  public void abort() {
    request.cancel();
    close();
  }

  @Override
  public void close() {
    try {
      response.close();
    } catch (IOException ignored) {
      // an aborted or broken connection is discarded by the pool either way
    }
  }
}
