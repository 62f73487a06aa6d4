package dev.braid.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** One JSON object on one line, built field by field (the CLI's events and listings need no more). */
final class Json {
  private final Map<String, String> fields = new LinkedHashMap<>();

  Json put(String name, String value) {
    fields.put(name, value == null ? "null" : quote(value));
    return this;
  }

  Json put(String name, long value) {
    fields.put(name, Long.toString(value));
    return this;
  }

  Json put(String name, double value) {
    fields.put(name, Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : "null");
    return this;
  }

  Json put(String name, boolean value) {
    fields.put(name, Boolean.toString(value));
    return this;
  }

  /** A nested object. */
  Json put(String name, Json value) {
    fields.put(name, value.toString());
    return this;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("{");
    fields.forEach((k, v) -> {
      if (b.length() > 1) {
        b.append(',');
      }
      b.append(quote(k)).append(':').append(v);
    });
    return b.append('}').toString();
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
