package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * JSON-RPC over HTTP on {@code /jsonrpc}: POST with the request as the body, or GET with
 * {@code method}, {@code id} and base64 {@code params} in the query (and {@code jsoncallback}
 * for JSONP). A POST's body is read by a {@link BodyReader}, within its limits. Each call runs on
 * one of the server's worker threads, never on its I/O thread; the answer to a wrong secret is
 * sent after a delay by a timer of the I/O thread, holding no thread.
 */
final class HttpEndpoint implements HttpHandler {
  private static final Pattern CALLBACK = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$.]{0,99}");
  private final Dispatcher dispatcher;
  private final ObjectMapper mapper;
  private final Cors cors;
  private final Duration unauthorizedDelay;
  private final BodyReader bodies;

  HttpEndpoint(Dispatcher dispatcher, ObjectMapper mapper, Cors cors, Duration unauthorizedDelay, BodyReader bodies) {
    this.dispatcher = dispatcher;
    this.bodies = bodies;
    this.mapper = mapper;
    this.cors = cors;
    this.unauthorizedDelay = unauthorizedDelay;
  }

  @Override
  public void handleRequest(HttpServerExchange ex) {
    boolean granted = cors.grant(ex);
    if (ex.getRequestMethod().equals(Methods.OPTIONS)) {
      if (granted) {
        cors.preflight(ex);
      }
      ex.setStatusCode(granted ? 200 : 403);
      ex.endExchange();
    } else if (ex.getRequestMethod().equals(Methods.POST)) {
      bodies.read(ex, (e, body) ->
          e.dispatch(OutOfMemory.reported(() -> answer(e, new String(body, StandardCharsets.UTF_8), null))));
    } else if (ex.getRequestMethod().equals(Methods.GET)) {
      String callback = query(ex, "jsoncallback");
      if (callback != null && !CALLBACK.matcher(callback).matches()) {
        ex.setStatusCode(400);
        ex.endExchange();
        return;
      }
      ex.dispatch(OutOfMemory.reported(() -> answer(ex, fromQuery(ex), callback)));
    } else {
      ex.setStatusCode(405);
      ex.endExchange();
    }
  }

  /** The request a GET carries, as the JSON a POST would; what cannot be read becomes text the parser refuses. */
  private String fromQuery(HttpServerExchange ex) {
    String params = query(ex, "params");
    String method = query(ex, "method");
    try {
      JsonNode decoded = params == null ? null : mapper.readTree(decode(params));
      if (method == null && decoded != null && decoded.isArray()) {
        return mapper.writeValueAsString(decoded);
      }
      ObjectNode call = NODES.objectNode().put("jsonrpc", "2.0");
      if (method != null) {
        call.put("method", method);
      }
      String id = query(ex, "id");
      if (id != null) {
        call.put("id", id);
      }
      if (decoded != null) {
        call.set("params", decoded);
      }
      return mapper.writeValueAsString(call);
    } catch (IOException | IllegalArgumentException e) {
      return "{";
    }
  }

  private static byte[] decode(String base64) {
    String s = base64.replace(' ', '+');
    return s.indexOf('-') >= 0 || s.indexOf('_') >= 0 ? Base64.getUrlDecoder().decode(s) : Base64.getDecoder().decode(s);
  }

  private static String query(HttpServerExchange ex, String name) {
    Deque<String> v = ex.getQueryParameters().get(name);
    return v == null || v.isEmpty() ? null : v.getFirst();
  }

  /** On a worker thread: the call, then its answer, at once or (a wrong secret) after the delay. */
  private void answer(HttpServerExchange ex, String body, String callback) {
    Dispatcher.Reply r = dispatcher.handle(body, Caller.at(ex.getSourceAddress()));
    if (r.unauthorized()) {
      ex.getIoThread().executeAfter(() -> send(ex, r, callback), unauthorizedDelay.toMillis(), TimeUnit.MILLISECONDS);
    } else {
      send(ex, r, callback);
    }
  }

  private static void send(HttpServerExchange ex, Dispatcher.Reply r, String callback) {
    ex.setStatusCode(r.status());
    if (callback == null) {
      ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json-rpc");
      ex.getResponseSender().send(r.json(), StandardCharsets.UTF_8);
    } else {
      ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/javascript");
      ex.getResponseSender().send(callback + "(" + r.json() + ")", StandardCharsets.UTF_8);
    }
  }
}
