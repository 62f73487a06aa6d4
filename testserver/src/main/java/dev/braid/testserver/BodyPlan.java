package dev.braid.testserver;

/**
 * How to send one response body.
 *
 * @param content where the bytes come from; positions past its end read as zeros
 * @param offset the content position of the first body byte
 * @param length the body bytes to send if no fault intervenes
 * @param framing how the client learns where the body ends
 * @param stall a claimed stall fault, or null
 * @param ending a claimed drop or truncate fault, or null
 * @param resource the knobs (rate limit) and byte counter to use
 */
record BodyPlan(Content content, long offset, long length, Framing framing, Fault stall, Fault ending, Resource resource) {

  enum Framing {
    /** Content-Length declares the size. */
    LENGTH,
    /** Transfer-Encoding: chunked. */
    CHUNKED,
    /** The server closes the connection after the body. */
    CLOSE
  }
}
