package dev.braid.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.Gid;
import java.util.ArrayList;
import java.util.List;

/** A call's positional parameters after the secret, read as aria2 reads them (numbers may come as strings). */
final class Params {
  private final ArrayNode values;

  Params(ArrayNode values) {
    this.values = values;
  }

  int size() {
    return values.size();
  }

  boolean has(int i) {
    return i < values.size() && !values.get(i).isNull();
  }

  String string(int i) throws RpcException {
    if (!has(i) || !values.get(i).isTextual()) {
      throw new RpcException(RpcException.INVALID_PARAMS, "parameter " + (i + 1) + " must be a string");
    }
    return values.get(i).asText();
  }

  /** The gid at {@code i}, as an entry id. */
  long gid(int i) throws RpcException {
    String gid = string(i);
    try {
      return Gid.parse(gid);
    } catch (IllegalArgumentException e) {
      throw RpcException.failed("Bad GID " + gid);
    }
  }

  int integer(int i) throws RpcException {
    if (!has(i)) {
      throw new RpcException(RpcException.INVALID_PARAMS, "parameter " + (i + 1) + " must be an integer");
    }
    JsonNode n = values.get(i);
    if (n.canConvertToInt() && n.isIntegralNumber()) {
      return n.intValue();
    }
    try {
      return Integer.parseInt(n.asText());
    } catch (NumberFormatException e) {
      throw new RpcException(RpcException.INVALID_PARAMS, "parameter " + (i + 1) + " must be an integer");
    }
  }

  /** The struct at {@code i}, or an empty one when it is absent. */
  ObjectNode object(int i) throws RpcException {
    if (!has(i)) {
      return values.objectNode();
    }
    if (!values.get(i).isObject()) {
      throw new RpcException(RpcException.INVALID_PARAMS, "parameter " + (i + 1) + " must be a struct");
    }
    return (ObjectNode) values.get(i);
  }

  /** Whether the value at {@code i} is JSON true or the string "true" (aria2 sends flags as strings). */
  boolean flag(int i) {
    return has(i) && (values.get(i).asBoolean() || "true".equals(values.get(i).asText()));
  }

  /** The array at {@code i}. */
  ArrayNode array(int i) throws RpcException {
    if (!has(i) || !values.get(i).isArray()) {
      throw new RpcException(RpcException.INVALID_PARAMS, "parameter " + (i + 1) + " must be an array");
    }
    return (ArrayNode) values.get(i);
  }

  /** The array of strings at {@code i}, or an empty list when it is absent. */
  List<String> strings(int i) throws RpcException {
    List<String> out = new ArrayList<>();
    if (!has(i)) {
      return out;
    }
    if (!values.get(i).isArray()) {
      throw new RpcException(RpcException.INVALID_PARAMS, "parameter " + (i + 1) + " must be an array of strings");
    }
    for (JsonNode n : values.get(i)) {
      if (!n.isTextual()) {
        throw new RpcException(RpcException.INVALID_PARAMS, "parameter " + (i + 1) + " must be an array of strings");
      }
      out.add(n.asText());
    }
    return out;
  }
}
