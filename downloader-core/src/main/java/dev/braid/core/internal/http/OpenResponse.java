package dev.braid.core.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/** A response whose head has arrived: over an HTTP/1.1 connection or an HTTP/2 stream. */
interface OpenResponse {
  int status();

  /** The first value of a header, or null. */
  String header(String name);

  /** Every value of a header, in the order received (a repeated header, such as several Link lines). */
  List<String> headers(String name);

  /** The declared body length, or -1. */
  long contentLength();

  InputStream body() throws IOException;

  /** Stops the body where it is: the connection (HTTP/1.1) or the stream (HTTP/2) is dropped. Thread-safe. */
  void abort();

  /** Releases a fully read response for reuse of its connection. */
  void close();
}
