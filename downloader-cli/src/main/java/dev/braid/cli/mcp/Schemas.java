package dev.braid.cli.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON Schemas of the tools' inputs, as the maps the SDK sends: objects of described properties. */
final class Schemas {
  private Schemas() {}

  /** {@return an object schema of {@code properties}, {@code required} among them, and no other property} */
  static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("type", "object");
    s.put("properties", properties);
    s.put("required", required);
    // a misspelt argument is refused, not silently ignored
    s.put("additionalProperties", false);
    return s;
  }

  /** {@return a property of JSON type {@code type}} */
  static Map<String, Object> property(String type, String description) {
    return Map.of("type", type, "description", description);
  }

  /** {@return a whole-number property from {@code min} to {@code max}} */
  static Map<String, Object> integer(String description, long min, long max) {
    return Map.of("type", "integer", "description", description, "minimum", min, "maximum", max);
  }

  /** {@return the schema of a tool whose one argument is a download's id} */
  static Map<String, Object> idOnly() {
    return object(Map.of("id", id()), List.of("id"));
  }

  /** {@return the id property} */
  static Map<String, Object> id() {
    return integer("the download's id, as add_download or list_downloads gave it", 1, Long.MAX_VALUE);
  }
}
