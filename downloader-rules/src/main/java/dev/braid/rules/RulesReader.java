package dev.braid.rules;

import com.fasterxml.jackson.databind.JsonNode;
import dev.braid.core.rules.Category;
import dev.braid.core.rules.HostRule;
import dev.braid.core.rules.Rules;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
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

  RulesReader(Path file, String text, Path home) {
    this.file = file;
    this.lines = new KeyLines(text);
    this.home = home;
  }

  Rules read(JsonNode root) throws RulesFileException {
    List<HostRule> hostRules = new ArrayList<>();
    List<Category> categories = new ArrayList<>();
    checkKeys(root, List.of(), TOP);
    JsonNode hosts = root.get("hosts");
    if (hosts != null) {
      for (Map.Entry<String, JsonNode> e : entries(table(hosts, List.of("hosts")))) {
        hostRules.add(hostRule(e.getKey(), e.getValue(), List.of("hosts", e.getKey())));
      }
    }
    JsonNode cats = root.get("categories");
    if (cats != null) {
      for (Map.Entry<String, JsonNode> e : entries(table(cats, List.of("categories")))) {
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

  private HostRule hostRule(String pattern, JsonNode node, List<String> at) throws RulesFileException {
    HostRule.Builder b;
    try {
      b = HostRule.builder(pattern);
    } catch (IllegalArgumentException e) {
      throw error(at, e.getMessage());
    }
    checkKeys(table(node, at), at, HOST_KEYS);
    HostRule.Builder rule = b;
    set(node, at, "connections", v -> rule.connections(count(v)));
    set(node, at, "max-connections", v -> rule.maxConnections(count(v)));
    set(node, at, "max-connections-per-host", v -> rule.maxConnectionsPerHost(count(v)));
    set(node, at, "rate-limit", v -> rule.rateLimit(v.isIntegralNumber() ? v.asLong() : ByteSize.parse(text(v))));
    set(node, at, "user-agent", v -> rule.userAgent(text(v)));
    set(node, at, "proxy", v -> rule.proxy(text(v)));
    JsonNode headers = node.get("headers");
    if (headers != null) {
      List<String> h = with(at, "headers");
      for (Map.Entry<String, JsonNode> e : entries(table(headers, h))) {
        set(headers, h, e.getKey(), v -> rule.header(e.getKey(), text(v)));
      }
    }
    return rule.build();
  }

  private Category category(String name, JsonNode node, List<String> at) throws RulesFileException {
    checkKeys(table(node, at), at, CATEGORY_KEYS);
    JsonNode folder = node.get("folder");
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
  private void set(JsonNode node, List<String> at, String key, ValueSetter setter) throws RulesFileException {
    JsonNode v = node.get(key);
    if (v == null) {
      return;
    }
    try {
      setter.accept(v);
    } catch (IllegalArgumentException e) {
      throw error(with(at, key), e.getMessage());
    }
  }

  private interface ValueSetter {
    void accept(JsonNode value);
  }

  private void checkKeys(JsonNode node, List<String> at, Set<String> known) throws RulesFileException {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        throw error(with(at, name), "unknown key (known here: " + String.join(", ", known.stream().sorted().toList()) + ")");
      }
    }
  }

  private JsonNode table(JsonNode node, List<String> at) throws RulesFileException {
    if (!node.isObject()) {
      throw error(at, "must be a table");
    }
    return node;
  }

  private static List<Map.Entry<String, JsonNode>> entries(JsonNode table) {
    List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
    table.fields().forEachRemaining(out::add);
    return out;
  }

  private static int count(JsonNode v) {
    if (!v.isIntegralNumber()) {
      throw new IllegalArgumentException("must be a whole number, not " + describe(v));
    }
    return v.asInt();
  }

  private static String text(JsonNode v) {
    if (!v.isTextual()) {
      throw new IllegalArgumentException("must be a string, not " + describe(v));
    }
    return v.asText();
  }

  private static List<String> strings(JsonNode v) {
    if (!v.isArray()) {
      throw new IllegalArgumentException("must be a list of strings, like [\"mp4\", \"mkv\"]");
    }
    List<String> out = new ArrayList<>();
    v.forEach(one -> out.add(text(one)));
    return out;
  }

  private static String describe(JsonNode v) {
    return v.isTextual() ? "a string" : v.isNumber() ? "a number" : v.isBoolean() ? "a boolean"
        : v.isArray() ? "a list" : v.isObject() ? "a table" : v.getNodeType().name().toLowerCase(Locale.ROOT);
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
