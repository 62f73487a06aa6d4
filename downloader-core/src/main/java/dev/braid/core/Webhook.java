package dev.braid.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@link DownloadHook#webhook}: a POST of the event as JSON. The JDK's HttpURLConnection, not
 * Braid's own client: a webhook must not take connections from the downloads' pool, and the JDK's
 * {@code java.net.http} is not in the packaged runtime. Its connect and read timeouts are the
 * hook's bound, and at most {@value #MAX_ANSWER_BYTES} bytes of the answer are read.
 */
final class Webhook implements DownloadHook {
  /** The most of an answer read: nothing in it is used, its status is the hook's result. */
  static final int MAX_ANSWER_BYTES = 64 << 10;

  private final URI url;
  private final Function<HookEvent, String> body;

  /** A hook that POSTs {@code body(event)} to {@code url}. */
  Webhook(URI url, Function<HookEvent, String> body) {
    Objects.requireNonNull(url, "url");
    this.body = Objects.requireNonNull(body, "body");
    String scheme = url.getScheme();
    if (!url.isAbsolute() || url.getHost() == null || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
      throw new IllegalArgumentException("url must be an absolute http or https URL, not " + url);
    }
    this.url = url;
  }

  @Override
  public void run(HookEvent event, Duration timeout) throws IOException {
    byte[] json = body.apply(event).getBytes(StandardCharsets.UTF_8);
    HttpURLConnection c = (HttpURLConnection) url.toURL().openConnection();
    int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    try {
      c.setConnectTimeout(millis);
      c.setReadTimeout(millis);
      c.setInstanceFollowRedirects(false);
      c.setRequestMethod("POST");
      c.setDoOutput(true);
      c.setFixedLengthStreamingMode(json.length);
      c.setRequestProperty("Content-Type", "application/json");
      c.setRequestProperty("User-Agent", "Braid-webhook");
      try (OutputStream out = c.getOutputStream()) {
        out.write(json);
      }
      int status = c.getResponseCode();
      InputStream answer = status >= 400 ? c.getErrorStream() : c.getInputStream();
      if (answer != null) {
        try (answer) {
          drain(answer);
        }
      }
      if (status < 200 || status > 299) {
        throw new IOException("answered HTTP " + status);
      }
    } finally {
      c.disconnect();
    }
  }

  /**
   * Reads a short answer to its end, so that the connection can be kept; a longer one is left
   * unread past {@value #MAX_ANSWER_BYTES} bytes, and closing it unfinished closes its
   * connection: an endless answer once filled the heap.
   */
  private static void drain(InputStream answer) throws IOException {
    byte[] buffer = new byte[8192];
    long read = 0;
    int n;
    while (read <= MAX_ANSWER_BYTES && (n = answer.read(buffer)) >= 0) {
      read += n;
    }
  }

  @Override
  public String toString() {
    // a URL's user info is a credential: never shown
    return url.getUserInfo() == null ? url.toString() : url.toString().replace(url.getRawUserInfo() + "@", "");
  }
}
