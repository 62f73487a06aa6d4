package dev.braid.client.remote;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A value of a daemon's JSON answer as jackson-jr reads it (maps, lists, strings, numbers,
 * booleans), looked at the way the client's commands need: a missing field is a value too, and
 * reads as empty text or 0, so that an answer without an optional field needs no checks.
 */
final class RpcValue implements Iterable<RpcValue> {
  private static final RpcValue MISSING = new RpcValue(null);

  private final Object value;

  private RpcValue(Object value) {
    this.value = value;
  }

  static RpcValue of(Object value) {
    return value == null ? MISSING : new RpcValue(value);
  }

  /** The field {@code name} of an object; missing for anything else or an absent field. */
  RpcValue path(String name) {
    return value instanceof Map<?, ?> m ? of(m.get(name)) : MISSING;
  }

  /** Element {@code index} of an array; missing for anything else or past its end. */
  RpcValue path(int index) {
    return value instanceof List<?> l && index >= 0 && index < l.size() ? of(l.get(index)) : MISSING;
  }

  boolean has(String name) {
    return value instanceof Map<?, ?> m && m.containsKey(name);
  }

  boolean isNumber() {
    return value instanceof Number;
  }

  boolean isTextual() {
    return value instanceof String;
  }

  /** A string as it is, null for anything else. */
  String textValue() {
    return value instanceof String s ? s : null;
  }

  /** A scalar as text; "" for a missing value, an object or an array. */
  String asText() {
    return asText("");
  }

  String asText(String otherwise) {
    return value instanceof String || value instanceof Number || value instanceof Boolean ? value.toString() : otherwise;
  }

  long asLong() {
    if (value instanceof Number n) {
      return n.longValue();
    }
    try {
      return value instanceof String s ? Long.parseLong(s.strip()) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  int asInt() {
    return (int) asLong();
  }

  double asDouble() {
    if (value instanceof Number n) {
      return n.doubleValue();
    }
    try {
      return value instanceof String s ? Double.parseDouble(s.strip()) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  boolean asBoolean() {
    return value instanceof Boolean b ? b : value instanceof String s && s.equals("true");
  }

  /** The elements of an array; nothing for any other value. */
  @Override
  public Iterator<RpcValue> iterator() {
    List<?> items = value instanceof List<?> l ? l : List.of();
    return items.stream().map(RpcValue::of).iterator();
  }
}
