package dev.braid.testserver;

import java.io.IOException;
import java.time.Instant;
import java.util.Base64;
import java.util.function.Consumer;

/**
 * Answers requests for one {@link Resource}: the hook, armed failures, the concurrency cap, then
 * the RFC 9110 range and If-Range rules bent by whichever knobs are on.
 */
final class ResourceResponder implements Route {
  private final Resource resource;

  ResourceResponder(Resource resource) {
    this.resource = resource;
  }

  @Override
  public boolean respond(HttpRequest request, Connection connection) throws IOException, InterruptedException {
    Consumer<RequestRecord> hook = resource.onRequest();
    if (hook != null) {
      hook.accept(connection.recordOf(request, 0));
    }
    if (!resource.sent().tokenAccepted(request.target()) || !resource.cookieAccepted(request.header("cookie"))) {
      return connection.send(request, Response.text(403));
    }
    ArmedFaults.Failure failure = resource.faults().claimFailure();
    if (failure != null) {
      return connection.send(request, Response.text(failure.status()).header("Retry-After", failure.retryAfterSeconds()));
    }
    if (!resource.faults().enter()) {
      return connection.send(request, Response.text(503).header("Retry-After", 1));
    }
    try {
      return connection.send(request, answer(request));
    } finally {
      resource.faults().exit();
    }
  }

  private Response answer(HttpRequest request) {
    Content content = resource.content();
    ResponseKnobs knobs = resource.knobs();
    String etag = knobs.etag();
    String coding = knobs.contentEncoding();
    ResponseKnobs.Encoded encoded = knobs.encodedWhenAccepted();
    if (encoded != null && accepts(request.header("accept-encoding"), encoded.coding())) {
      content = encoded.content();
      coding = encoded.coding();
      etag = etag == null || !etag.endsWith("\"") ? etag : etag.substring(0, etag.length() - 1) + "-" + coding + "\"";
    }
    long size = content.size();
    Instant modified = knobs.clockDates() ? Instant.now() : knobs.lastModified();
    String lastModified = modified == null ? null : Response.httpDate(modified);

    BodyPlan.Framing framing = knobs.chunked() ? BodyPlan.Framing.CHUNKED
        : knobs.noContentLength() ? BodyPlan.Framing.CLOSE
        : BodyPlan.Framing.LENGTH;
    RangeRequest range = framing != BodyPlan.Framing.LENGTH || knobs.ignoreRange()
        || !ifRangeMatches(request.header("if-range"), etag, knobs.weakDates() ? null : lastModified)
        ? RangeRequest.WHOLE
        : RangeRequest.parse(request.header("range"), size);

    int status = range instanceof RangeRequest.Span ? 206 : range == RangeRequest.UNSATISFIABLE ? 416 : 200;
    Response response = new Response(status)
        .header("Content-Type", "application/octet-stream")
        .header("ETag", etag)
        .header("Last-Modified", lastModified)
        .header("Content-Encoding", coding)
        .header("Content-Disposition", knobs.contentDisposition())
        .header("Accept-Ranges", knobs.acceptRanges() ? "bytes" : null)
        .flood(knobs.headerFlood());
    knobs.extraHeaders().forEach(h -> response.header(h.getKey(), h.getValue()));
    if (status == 416) {
      return response.header("Content-Range", "bytes */" + size).header("Content-Length", 0);
    }

    long first = 0;
    long length = size;
    if (range instanceof RangeRequest.Span span) {
      long shift = knobs.shiftContentRange();
      first = Math.max(0, Math.min(size - 1, span.first() + shift));
      long last = Math.max(first, Math.min(size - 1, span.last() + shift));
      length = last - first + 1;
      long total = knobs.wrongTotal() ? size + 1 : size;
      response.header("Content-Range", "bytes " + first + "-" + last + "/" + total);
    }
    if (knobs.contentDigest() && framing == BodyPlan.Framing.LENGTH) {
      response.header("Content-Digest", "sha-256=:" + Base64.getEncoder().encodeToString(content.sha256(first, length)) + ":");
    }
    switch (framing) {
      case LENGTH -> {
        length += knobs.extraBytes();
        response.header("Content-Length", length);
      }
      case CHUNKED -> response.header("Transfer-Encoding", "chunked");
      case CLOSE -> response.closeConnection();
    }
    if (!request.isHead()) {
      // Faults are claimed only by responses that actually send this body.
      response.body(new BodyPlan(content, first, length, framing,
          resource.faults().claimStall(length), resource.faults().claimEnding(length), resource));
    }
    return response;
  }

  /** Whether an Accept-Encoding header names {@code coding} (without weighing q-values: a test server). */
  private static boolean accepts(String acceptEncoding, String coding) {
    if (acceptEncoding == null) {
      return false;
    }
    for (String part : acceptEncoding.split(",")) {
      String name = part.split(";")[0].trim();
      if (name.equalsIgnoreCase(coding) && !part.replace(" ", "").endsWith(";q=0")) {
        return true;
      }
    }
    return false;
  }

  /**
   * RFC 9110 §13.1.5: the range applies only if If-Range is absent or equals the current strong
   * ETag or the exact Last-Modified date; a weak ETag never matches.
   */
  static boolean ifRangeMatches(String ifRange, String etag, String lastModified) {
    if (ifRange == null) {
      return true;
    }
    if (etag != null && !etag.startsWith("W/") && ifRange.equals(etag)) {
      return true;
    }
    return lastModified != null && ifRange.equals(lastModified);
  }
}
