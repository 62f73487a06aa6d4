package dev.braid.rpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.client.remote.RpcNames;
import dev.braid.core.StateStoreException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON-RPC 2.0 as aria2 speaks it: one request or a batch, {@code token:SECRET} (or an API key,
 * {@code token:KEY}) as the first parameter, {@code system.multicall}, and aria2's error shapes.
 * Every call's token is checked on its own, a batch's and a multicall's too, by the {@link Gate}:
 * through the guess limiter, and against the method for a key's {@link Scope}. Thread-safe; the
 * transports call it from their worker threads.
 */
final class Dispatcher {
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** The methods that need no secret, as in aria2 (a client asks them before it knows whether it has one). */
  private static final List<String> OPEN = List.of("system.listMethods", "system.listNotifications");
  /**
   * The most calls one request may carry, as a batch or a {@code system.multicall}: every call gets
   * an answer object of a few hundred bytes, so a 1 MiB batch of 500,000 two-byte calls would
   * otherwise build some 200 MB of answers from one request, with or without the secret.
   */
  static final int MAX_CALLS = 10_000;
  /**
   * The most JSON tokens one request may carry (its server's parser refuses more): a tree node
   * costs up to some 50 bytes of heap per token, so a 1 MiB body of {@code [],[],...} would
   * otherwise become a 35 MB tree before any check, on each of the server's worker threads. A
   * multicall of {@link #MAX_CALLS} status calls takes about half of it.
   */
  static final long MAX_TOKENS = 250_000;
  static final String TOO_MANY_TOKENS = "Invalid Request: at most " + MAX_TOKENS + " JSON tokens in one request";
  static final String TOO_MANY_CALLS = "Invalid Request: at most " + MAX_CALLS + " calls in one request";

  private final ObjectMapper mapper;
  private final Gate gate;
  private final Map<String, Method> methods = new LinkedHashMap<>();
  /** The mapper for requests and answers: its parser holds a request to {@link #MAX_TOKENS}. */
  static ObjectMapper mapper() {
    return new ObjectMapper(JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder().maxTokenCount(MAX_TOKENS).build()).build());
  }

  /** Methods whose consecutive calls in a {@code system.multicall} run together. */
  private final Map<String, Method.Batch> batches = new LinkedHashMap<>();

  Dispatcher(ObjectMapper mapper, Gate gate) {
    this.mapper = mapper;
    this.gate = gate;
    // answered in call(), which passes them the checks of the call's token; listed here for listMethods
    methods.put("system.multicall", p -> NODES.nullNode());
    methods.put(RpcNames.WHOAMI, p -> NODES.nullNode());
    methods.put("system.listMethods", p -> strings(methods.keySet()));
    methods.put("system.listNotifications", p -> strings(Notifier.NAMES));
  }

  /** Adds a method under its full name ({@code aria2.addUri}). */
  void add(String name, Method m) {
    methods.put(name, m);
  }

  /**
   * Adds a method whose consecutive calls in one {@code system.multicall} go to {@code together}
   * in one go (each call's secret checked on its own); a call on its own goes to {@code one}.
   */
  void add(String name, Method one, Method.Batch together) {
    methods.put(name, one);
    batches.put(name, together);
  }

  /**
   * The answer to a request body. {@code unauthorized} asks the transport to hold the answer back;
   * {@code status} is the HTTP status aria2 gives it (200, 400 for an error answer, 500 for bad JSON).
   */
  record Reply(String json, boolean unauthorized, int status) {}

  /** The answer to a request body from {@code caller}, whose secrets are checked as it stands ({@link Caller}). */
  Reply handle(String body, Caller caller) {
    JsonNode request;
    try {
      request = mapper.readTree(body);
    } catch (StreamConstraintsException e) {
      return new Reply(write(error(null, RpcException.INVALID_REQUEST, TOO_MANY_TOKENS)), false, 400);
    } catch (JsonProcessingException e) {
      return new Reply(write(error(null, RpcException.PARSE_ERROR, "Parse error.")), false, 500);
    }
    if (request == null) {
      return new Reply(write(error(null, RpcException.PARSE_ERROR, "Parse error.")), false, 500);
    }
    Checks checks = new Checks(caller);
    if (request.isArray()) {
      if (request.size() > MAX_CALLS) {
        return new Reply(write(error(null, RpcException.INVALID_REQUEST, TOO_MANY_CALLS)), false, 400);
      }
      ArrayNode answers = NODES.arrayNode();
      for (JsonNode r : request) {
        answers.add(one(r, checks));
      }
      return new Reply(write(answers), checks.unauthorized, 200);
    }
    ObjectNode answer = one(request, checks);
    return new Reply(write(answer), checks.unauthorized, answer.has("error") ? 400 : 200);
  }

  /**
   * The token checks of one request body: its caller, whether a token in it was wrong or refused,
   * and what the last right one granted. Its handling thread only.
   */
  private static final class Checks {
    final Caller caller;
    boolean unauthorized;
    Access.Grant grant;

    Checks(Caller caller) {
      this.caller = caller;
    }
  }

  private ObjectNode one(JsonNode request, Checks checks) {
    JsonNode id = request.isObject() ? request.get("id") : null;
    JsonNode name = request.isObject() ? request.get("method") : null;
    JsonNode params = request.isObject() ? request.get("params") : null;
    if (name == null || !name.isTextual() || (params != null && !params.isArray())) {
      return error(id, RpcException.INVALID_REQUEST, "Invalid Request.");
    }
    try {
      ObjectNode ok = NODES.objectNode();
      ok.set("id", id);
      ok.put("jsonrpc", "2.0");
      ok.set("result", call(name.asText(), params == null ? NODES.arrayNode() : (ArrayNode) params, checks));
      return ok;
    } catch (RpcException e) {
      return error(id, e.code(), e.getMessage());
    }
  }

  private JsonNode call(String name, ArrayNode params, Checks checks) throws RpcException {
    Method m = methods.get(name);
    if (m == null) {
      throw RpcException.failed("No such method: " + name);
    }
    if (name.equals("system.multicall")) {
      return multicall(new Params(params), checks);
    }
    Params rest = authorized(name, params, checks);
    if (name.equals(RpcNames.WHOAMI)) {
      return whoami(checks.grant);
    }
    try {
      return m.call(rest);
    } catch (RuntimeException e) {
      throw failure(e);
    }
  }

  /**
   * The parameters after the token, which must be right, and allow the method, unless the method
   * is open to all.
   */
  private Params authorized(String name, ArrayNode params, Checks checks) throws RpcException {
    ArrayNode rest = params;
    if (!OPEN.contains(name)) {
      JsonNode token = params.isEmpty() ? null : params.get(0);
      checks.grant = gate.admit(token == null || !token.isTextual() ? null : token.asText(), name, checks.caller,
          () -> checks.unauthorized = true);
      rest = params.deepCopy();
      rest.remove(0);
    } else if (!params.isEmpty() && params.get(0).isTextual() && params.get(0).asText().startsWith(Secret.PREFIX)) {
      // a client may send its token to the open methods too
      rest = params.deepCopy();
      rest.remove(0);
    }
    return new Params(rest);
  }

  /** Whether notifications may go to {@code caller}: it has shown a token that still holds (a key not revoked since). */
  boolean hears(Caller caller) {
    return gate.hears(caller);
  }

  /** {@code braid.whoami}'s answer: the scope, and the key's name when a key made the call. */
  private static JsonNode whoami(Access.Grant grant) {
    ObjectNode o = NODES.objectNode().put("scope", grant.scope().text());
    if (grant.key() != null) {
      o.put("key", grant.key().name());
    }
    return o;
  }

  /** What a call answers when the engine failed under it: a bug or an engine failure answers that call, the daemon goes on. */
  static RpcException failure(RuntimeException e) {
    if (e instanceof StateStoreException) {
      return RpcException.failed("the state database cannot be used: " + e.getMessage());
    }
    return RpcException.failed(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
  }

  /** {@code system.multicall([{methodName, params}, ...])}: each result in a one-element array, each failure a struct. */
  private JsonNode multicall(Params p, Checks checks) throws RpcException {
    if (!p.has(0) || p.size() != 1) {
      throw new RpcException(RpcException.INVALID_PARAMS, "system.multicall takes one array of calls");
    }
    ArrayNode calls = p.array(0);
    if (calls.size() > MAX_CALLS) {
      throw new RpcException(RpcException.INVALID_REQUEST, TOO_MANY_CALLS);
    }
    ArrayNode out = NODES.arrayNode();
    for (int i = 0; i < calls.size(); ) {
      JsonNode c = calls.get(i);
      JsonNode name = c.get("methodName");
      JsonNode params = c.get("params");
      if (name != null && name.isTextual() && batches.containsKey(name.asText()) && (params == null || params.isArray())) {
        i = together(calls, i, name.asText(), out, checks);
        continue;
      }
      try {
        if (name == null || !name.isTextual() || name.asText().equals("system.multicall")
            || (params != null && !params.isArray())) {
          throw RpcException.failed("Invalid call in system.multicall");
        }
        out.add(NODES.arrayNode().add(call(name.asText(), params == null ? NODES.arrayNode() : (ArrayNode) params, checks)));
      } catch (RpcException e) {
        out.add(answer(e));
      }
      i++;
    }
    return out;
  }

  /**
   * The calls of {@code name} from {@code from} on, as long as they come one after the other, in
   * one go; appends their answers in order and returns the index after them.
   */
  private int together(ArrayNode calls, int from, String name, ArrayNode out, Checks checks) {
    List<Object> answers = new ArrayList<>();
    List<Params> run = new ArrayList<>();
    int end = from;
    for (; end < calls.size() && name.equals(calls.get(end).path("methodName").asText(null)); end++) {
      JsonNode params = calls.get(end).get("params");
      if (params != null && !params.isArray()) {
        answers.add(RpcException.failed("Invalid call in system.multicall"));
        continue;
      }
      try {
        run.add(authorized(name, params == null ? NODES.arrayNode() : (ArrayNode) params, checks));
        answers.add(run.size() - 1);
      } catch (RpcException e) {
        answers.add(e);
      }
    }
    List<Object> results = batches.get(name).callAll(run);
    for (Object a : answers) {
      Object r = a instanceof Integer at ? results.get(at) : a;
      out.add(r instanceof RpcException e ? answer(e) : NODES.arrayNode().add((JsonNode) r));
    }
    return end;
  }

  private static ObjectNode answer(RpcException e) {
    return NODES.objectNode().put("code", e.code()).put("message", e.getMessage());
  }

  private static ArrayNode strings(Iterable<String> names) {
    ArrayNode a = NODES.arrayNode();
    names.forEach(a::add);
    return a;
  }

  private static ObjectNode error(JsonNode id, int code, String message) {
    ObjectNode e = NODES.objectNode();
    e.set("id", id == null ? NODES.nullNode() : id);
    e.put("jsonrpc", "2.0");
    e.set("error", NODES.objectNode().put("code", code).put("message", message));
    return e;
  }

  private String write(JsonNode n) {
    try {
      return mapper.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree that cannot be written", e);
    }
  }
}
