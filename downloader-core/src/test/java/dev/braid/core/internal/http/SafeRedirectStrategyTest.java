package dev.braid.core.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.apache.hc.client5.http.RedirectException;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.junit.jupiter.api.Test;

class SafeRedirectStrategyTest {
  private static BasicHttpResponse redirectTo(String location) {
    BasicHttpResponse r = new BasicHttpResponse(302);
    r.addHeader("Location", location);
    return r;
  }

  @Test
  void httpsToHttpIsRefusedUnlessAllowed() throws Exception {
    BasicHttpRequest request = new BasicHttpRequest("GET", URI.create("https://example.org/file"));
    RedirectException e = assertThrows(RedirectException.class, () -> new SafeRedirectStrategy(false)
        .getLocationURI(request, redirectTo("http://example.org/file"), HttpClientContext.create()));
    assertTrue(e.getMessage().contains("https to http"), e.getMessage());
    assertEquals(URI.create("http://example.org/file"), new SafeRedirectStrategy(true)
        .getLocationURI(request, redirectTo("http://example.org/file"), HttpClientContext.create()));
  }

  @Test
  void otherRedirectsAreFollowed() throws Exception {
    SafeRedirectStrategy s = new SafeRedirectStrategy(false);
    assertEquals(URI.create("https://mirror.example.net/f"), s.getLocationURI(
        new BasicHttpRequest("GET", URI.create("https://example.org/file")), redirectTo("https://mirror.example.net/f"),
        HttpClientContext.create()));
    assertEquals(URI.create("https://example.org/f"), s.getLocationURI(
        new BasicHttpRequest("GET", URI.create("http://example.org/file")), redirectTo("https://example.org/f"),
        HttpClientContext.create()));
  }
}
