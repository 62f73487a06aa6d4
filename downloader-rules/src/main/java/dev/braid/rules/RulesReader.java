package dev.braid.rules;

import dev.braid.core.ByteSize;
import dev.braid.core.rules.Category;
import dev.braid.core.rules.HostRule;
import dev.braid.core.rules.Rules;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the tree of a parsed rules file into {@link Rules}, strictly: an unknown key or a value of
 * the wrong type is an error naming its key and line, never ignored (a misspelt key silently
 * ignored is a rule that silently does nothing).
 */
final class RulesReader {
  static final Set<String> TOP = Set.of("hosts", "categories");
  static final Set<String> HOST_KEYS = Set.of("connections", "max-connections", "max-connections-per-host", "rate-limit",
      "user-agent", "proxy", "headers");
  static final Set<String> CATEGORY_KEYS = Set.of("folder", "extensions", "hosts");

  private final Path file;
  private final KeyLines lines;
  private final Path home;

  private RulesReader(Path file, String text, Path home) {
    this.file = file;
    this.lines = new KeyLines(text);
    this.home = home;
  }

  /** The rules in {@code text} (named {@code file} in errors), {@code ~} meaning {@code home}. */
  static Rules parse(String text, Path file, Path home) throws RulesFileException {
    return new RulesReader(file, text, home).read(TomlTree.parse(text, file));
  }

  private Rules read(Map<String, Object> root) throws RulesFileException {
    List<HostRule> hostRules = new ArrayList<>();
    List<Category> categories = new ArrayList<>();
    checkKeys(root, List.of(), TOP);
    Object hosts = root.get("hosts");
    if (hosts != null) {
      for (Map.Entry<String, Object> e : table(hosts, List.of("hosts")).entrySet()) {
        hostRules.add(hostRule(e.getKey(), e.getValue(), List.of("hosts", e.getKey())));
      }
    }
    Object cats = root.get("categories");
    if (cats != null) {
      for (Map.Entry<String, Object> e : table(cats, List.of("categories")).entrySet()) {
        categories.add(category(e.getKey(), e.getValue(), List.of("categories", e.getKey())));
      }
    }
    try {
      return Rules.of(hostRules, categories);
    } catch (IllegalArgumentException e) {
      // two patterns that differ only in case or a trailing dot: the same hosts twice
      throw error(List.of("hosts"), e.getMessage());
    }
  }

  private HostRule hostRule(String pattern, Object value, List<String> at) throws RulesFileException {
    HostRule.Builder b;
    try {
      b = HostRule.builder(pattern);
    } catch (IllegalArgumentException e) {
      throw error(at, e.getMessage());
    }
    Map<String, Object> node = table(value, at);
    checkKeys(node, at, HOST_KEYS);
    HostRule.Builder rule = b;
    set(node, at, "connections", v -> rule.connections(count(v)));
    set(node, at, "max-connections", v -> rule.maxConnections(count(v)));
    set(node, at, "max-connections-per-host", v -> rule.maxConnectionsPerHost(count(v)));
    set(node, at, "rate-limit", v -> rule.rateLimit(v instanceof Long n ? n : rate(text(v))));
    set(node, at, "user-agent", v -> rule.userAgent(text(v)));
    set(node, at, "proxy", v -> rule.proxy(text(v)));
    Object headers = node.get("headers");
    if (headers != null) {
      List<String> h = with(at, "headers");
      Map<String, Object> table = table(headers, h);
      for (String name : table.keySet()) {
        set(table, h, name, v -> rule.header(name, text(v)));
      }
    }
    return rule.build();
  }

  private Category category(String name, Object value, List<String> at) throws RulesFileException {
    Map<String, Object> node = table(value, at);
    checkKeys(node, at, CATEGORY_KEYS);
    Object folder = node.get("folder");
    if (folder == null) {
      throw error(at, "a category needs a folder");
    }
    Category.Builder b;
    try {
      b = Category.builder(name, folder(text(folder)));
    } catch (IllegalArgumentException e) {
      // InvalidPathException is one too
      throw error(with(at, "folder"), e.getMessage());
    }
    Category.Builder c = b;
    set(node, at, "extensions", v -> strings(v).forEach(c::extension));
    set(node, at, "hosts", v -> strings(v).forEach(c::host));
    try {
      return c.build();
    } catch (IllegalArgumentException e) {
      throw error(at, e.getMessage());
    }
  }

  /** {@code ~} and {@code ~/...} are the user's home; anything else must be absolute. */
  private Path folder(String given) {
    if (given.equals("~")) {
      return home;
    }
    if (given.startsWith("~/")) {
      return home.resolve(given.substring(2));
    }
    return Path.of(given);
  }

  /** Hands the value of {@code key}, if present, to {@code setter}; a bad value becomes an error at that key. */
  private void set(Map<String, Object> node, List<String> at, String key, ValueSetter setter) throws RulesFileException {
    Object v = node.get(key);
    if (v == null) {
      return;
    }
    try {
      setter.accept(v);
    } catch (IllegalArgumentException e) {
      throw error(with(at, key), e.getMessage());
    }
  }

  /** The error names the key and line; this says it is a rate and why the text is not one. */
  private static long rate(String text) {
    try {
      return ByteSize.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a rate (bytes per second): " + e.getMessage(), e);
    }
  }

  private interface ValueSetter {
    void accept(Object value);
  }

  private void checkKeys(Map<String, Object> node, List<String> at, Set<String> known) throws RulesFileException {
    for (String name : node.keySet()) {
      if (!known.contains(name)) {
        throw error(with(at, name), "unknown key (known here: " + String.join(", ", known.stream().sorted().toList()) + ")");
      }
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> table(Object node, List<String> at) throws RulesFileException {
    if (!(node instanceof Map)) {
      throw error(at, "must be a table, not " + describe(node));
    }
    return (Map<String, Object>) node;
  }

  private static int count(Object v) {
    if (!(v instanceof Long n)) {
      throw new IllegalArgumentException("must be a whole number, not " + describe(v));
    }
    if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(n + " is out of range");
    }
    return n.intValue();
  }

  private static String text(Object v) {
    if (!(v instanceof String s)) {
      throw new IllegalArgumentException("must be a string, not " + describe(v));
    }
    return s;
  }

  private static List<String> strings(Object v) {
    if (!(v instanceof List<?> list)) {
      throw new IllegalArgumentException("must be a list of strings, like [\"mp4\", \"mkv\"]");
    }
    List<String> out = new ArrayList<>();
    list.forEach(one -> out.add(text(one)));
    return out;
  }

  private static String describe(Object v) {
    return v instanceof String ? "a string" : v instanceof Number ? "a number" : v instanceof Boolean ? "a boolean"
        : v instanceof List ? "a list" : v instanceof Map ? "a table" : "a " + v.getClass().getSimpleName();
  }

  private static List<String> with(List<String> at, String key) {
    List<String> out = new ArrayList<>(at);
    out.add(key);
    return out;
  }

  private RulesFileException error(List<String> key, String reason) {
    return new RulesFileException(file, lines.lineOf(key), KeyLines.text(key), reason);
  }

}
