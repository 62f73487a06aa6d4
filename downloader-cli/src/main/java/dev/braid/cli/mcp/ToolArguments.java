package dev.braid.cli.mcp;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The arguments of one tool call, read by name and type. The SDK checks them against the tool's
 * input schema first; these checks hold on their own (a client may skip the schema, and a JSON
 * number may be 1.5 where an id is meant), each refusal a message naming the argument.
 */
public final class ToolArguments {
  private final Map<String, Object> values;

  /**
   * The arguments as the call carried them.
   *
   * @param values the arguments by name (null for none)
   */
  public ToolArguments(Map<String, Object> values) {
    this.values = values == null ? Map.of() : values;
  }

  /**
   * {@return the text argument {@code name}, which the call must give, not blank}
   *
   * @param name the argument
   * @throws ToolArgumentException when it is missing, blank or no string
   */
  public String text(String name) throws ToolArgumentException {
    return optionalText(name).orElseThrow(() -> new ToolArgumentException(name + " is required"));
  }

  /**
   * {@return the text argument {@code name}, if the call gives it}
   *
   * @param name the argument
   * @throws ToolArgumentException when it is given but blank or no string
   */
  public Optional<String> optionalText(String name) throws ToolArgumentException {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof String s)) {
      throw new ToolArgumentException(name + " must be a string, not " + v);
    }
    if (s.isBlank()) {
      throw new ToolArgumentException(name + " must not be empty");
    }
    return Optional.of(s.strip());
  }

  /**
   * {@return the download id the call names in {@code id}}
   *
   * @throws ToolArgumentException when it is missing or no positive whole number
   */
  public long id() throws ToolArgumentException {
    Object v = values.get("id");
    if (v == null) {
      throw new ToolArgumentException("id is required (the id add_download or list_downloads gave)");
    }
    long id = whole("id", v);
    if (id < 1) {
      throw new ToolArgumentException("id must be a download's id (1 or more), not " + id);
    }
    return id;
  }

  /**
   * {@return the whole-number argument {@code name} within {@code min..max}, if the call gives it}
   *
   * @param name the argument
   * @param min the least value allowed
   * @param max the greatest value allowed
   * @throws ToolArgumentException when it is given but no whole number, or out of range
   */
  public OptionalInt optionalInt(String name, int min, int max) throws ToolArgumentException {
    Object v = values.get(name);
    if (v == null) {
      return OptionalInt.empty();
    }
    long n = whole(name, v);
    if (n < min || n > max) {
      throw new ToolArgumentException(name + " must be from " + min + " to " + max + ", not " + n);
    }
    return OptionalInt.of((int) n);
  }

  /**
   * {@return the boolean argument {@code name}, false when the call does not give it}
   *
   * @param name the argument
   * @throws ToolArgumentException when it is given but no boolean
   */
  public boolean flag(String name) throws ToolArgumentException {
    Object v = values.get(name);
    if (v == null) {
      return false;
    }
    if (!(v instanceof Boolean b)) {
      throw new ToolArgumentException(name + " must be true or false, not " + v);
    }
    return b;
  }

  private static long whole(String name, Object v) throws ToolArgumentException {
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && Math.abs(n.doubleValue()) < 1e15) {
      // JSON has one number type: 3.0 is the whole number 3
      return (long) n.doubleValue();
    }
    throw new ToolArgumentException(name + " must be a whole number, not " + v);
  }
}
