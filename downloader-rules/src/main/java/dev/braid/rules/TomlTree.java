package dev.braid.rules;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.toml.TomlFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A TOML text as plain values (tables as ordered maps, arrays as lists, strings, longs, doubles,
 * booleans), read from the tokens of Jackson's TOML parser. The streaming parser rather than
 * {@code TomlMapper}: a first read through the mapper loads ~430 Jackson classes, through the
 * parser ~120 ({@code -verbose:class}), and the CLI reads the file at every start.
 */
final class TomlTree {
  private TomlTree() {}

  /** The top-level table of {@code text}; {@code file} names it in a syntax error. */
  static Map<String, Object> parse(String text, Path file) throws RulesFileException {
    try (JsonParser p = new TomlFactory().createParser(text)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        return Map.of();
      }
      return table(p);
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      throw new RulesFileException(file, at == null ? 0 : Math.max(at.getLineNr(), 0), "",
          "not valid TOML: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new RulesFileException(file, 0, "", "cannot read it: " + e.getMessage());
    }
  }

  /** The table whose START_OBJECT is the current token. */
  private static Map<String, Object> table(JsonParser p) throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      p.nextToken();
      out.put(name, value(p));
    }
    return out;
  }

  private static List<Object> array(JsonParser p) throws IOException {
    List<Object> out = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      out.add(value(p));
    }
    return out;
  }

  private static Object value(JsonParser p) throws IOException {
    return switch (p.currentToken()) {
      case START_OBJECT -> table(p);
      case START_ARRAY -> array(p);
      // a whole number beyond a long stays a BigInteger, which every count refuses as not a whole number in range
      case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue() : (Object) p.getLongValue();
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      default -> p.getText();
    };
  }
}
