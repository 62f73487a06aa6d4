package dev.braid.rules;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The line each key of a TOML text is on, for error messages. Jackson's TOML parser reports lines
 * for syntax errors only, and a tree carries none; this scan finds table headers and
 * {@code key = } lines (and the keys of a one-line inline table) in text that already parsed. It is
 * never used to read values: a key it misses gets the line of its table, or none.
 */
final class KeyLines {
  private static final Pattern KEY = Pattern.compile("\\s*((?:\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|[A-Za-z0-9_.\\-\\s])+?)\\s*=");
  private static final Pattern INLINE_KEY = Pattern.compile("[{,]\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|[A-Za-z0-9_\\-]+)\\s*=");

  private final Map<List<String>, Integer> lines = new HashMap<>();

  KeyLines(String text) {
    List<String> table = List.of();
    String[] all = text.split("\r?\n", -1);
    for (int i = 0; i < all.length; i++) {
      String line = all[i].strip();
      int number = i + 1;
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("[")) {
        boolean array = line.startsWith("[[");
        int end = line.indexOf(array ? "]]" : "]");
        if (end > 0) {
          table = dotted(line.substring(array ? 2 : 1, end));
          lines.putIfAbsent(table, number);
        }
        continue;
      }
      Matcher m = KEY.matcher(line);
      if (m.lookingAt()) {
        List<String> key = concat(table, dotted(m.group(1)));
        lines.putIfAbsent(key, number);
        Matcher inline = INLINE_KEY.matcher(line.substring(m.end()));
        while (inline.find()) {
          lines.putIfAbsent(concat(key, dotted(inline.group(1))), number);
        }
      }
    }
  }

  /**
   * The line of {@code key}, else of the nearest enclosing table or key found, else of the first
   * table inside it ({@code [host."a.com"]} for {@code host}); 0 when none is found.
   */
  int lineOf(List<String> key) {
    for (int n = key.size(); n > 0; n--) {
      Integer line = lines.get(key.subList(0, n));
      if (line != null) {
        return line;
      }
    }
    int first = 0;
    for (Map.Entry<List<String>, Integer> e : lines.entrySet()) {
      List<String> k = e.getKey();
      if (k.size() > key.size() && k.subList(0, key.size()).equals(key) && (first == 0 || e.getValue() < first)) {
        first = e.getValue();
      }
    }
    return first;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return List.copyOf(out);
  }

  /** The parts of a dotted key, quotes removed ({@code hosts."a.com"} is [hosts, a.com]). */
  static List<String> dotted(String key) {
    List<String> parts = new ArrayList<>();
    StringBuilder part = new StringBuilder();
    char quote = 0;
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"' && i + 1 < key.length()) {
          part.append(key.charAt(++i));
        } else {
          part.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '.') {
        parts.add(part.toString().strip());
        part.setLength(0);
      } else {
        part.append(c);
      }
    }
    parts.add(part.toString().strip());
    return List.copyOf(parts);
  }

  /** A key path as TOML writes it, quoting the parts that need it. */
  static String text(List<String> key) {
    StringBuilder out = new StringBuilder();
    for (String part : key) {
      if (out.length() > 0) {
        out.append('.');
      }
      out.append(part.matches("[A-Za-z0-9_\\-]+") ? part : "\"" + part.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
    }
    return out.toString();
  }
}
