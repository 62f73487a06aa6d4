package dev.braid.core.internal.advert;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hc.core5.util.Tokenizer;

/**
 * Parses {@code Link} header values (RFC 8288): {@code <URI-reference>; param=value; ...}, several
 * per value, comma-separated, and several values. Quoted parameter values are unquoted by
 * httpcore5's tokenizer; the target is resolved against the response's URL. A value that breaks
 * the grammar ends its own parsing, keeping the links before it: a malformed header never fails a download.
 */
final class LinkHeader {
  /**
   * One link.
   *
   * @param target the absolute target
   * @param rels its relation types, lower case ({@code rel="duplicate describedby"} is two)
   * @param params its other parameters, names lower case, the first of each kept
   */
  record Link(URI target, Set<String> rels, Map<String, String> params) {
    /** The {@code pri} of RFC 6249 (lower first), {@value #LOWEST} when absent or not a number. */
    int priority() {
      try {
        int p = Integer.parseInt(params.getOrDefault("pri", ""));
        return p < 1 ? LOWEST : p;
      } catch (NumberFormatException e) {
        return LOWEST;
      }
    }

    /** The media type it names, lower case without parameters, or "". */
    String type() {
      return params.getOrDefault("type", "").split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    }
  }

  /** RFC 6249's default priority, the lowest. */
  static final int LOWEST = 999_999;

  private static final Tokenizer TOKENS = Tokenizer.INSTANCE;
  private static final BitSet NAME_END = Tokenizer.INIT_BITSET('=', ';', ',');
  private static final BitSet VALUE_END = Tokenizer.INIT_BITSET(';', ',');

  private LinkHeader() {}

  /** The links of every value, in order; {@code bad} hears what could not be read. */
  static List<Link> parse(List<String> values, URI base, List<String> bad) {
    List<Link> links = new ArrayList<>();
    for (String v : values) {
      parseValue(v, base, links, bad);
    }
    return links;
  }

  private static void parseValue(String v, URI base, List<Link> links, List<String> bad) {
    Tokenizer.Cursor c = new Tokenizer.Cursor(0, v.length());
    while (true) {
      TOKENS.skipWhiteSpace(v, c);
      if (c.atEnd()) {
        return;
      }
      if (v.charAt(c.getPos()) == ',') {
        c.updatePos(c.getPos() + 1);
        continue;
      }
      int close = v.indexOf('>', c.getPos());
      if (v.charAt(c.getPos()) != '<' || close < 0) {
        bad.add("a Link header not of the form <URI>; rel=... was ignored from '" + v.substring(c.getPos()) + "'");
        return;
      }
      String ref = v.substring(c.getPos() + 1, close).strip();
      c.updatePos(close + 1);
      Map<String, String> params = params(v, c);
      String rel = params.remove("rel");
      if (rel == null) {
        continue;
      }
      try {
        links.add(new Link(base.resolve(new URI(ref)), Set.copyOf(Arrays.asList(rel.toLowerCase(Locale.ROOT).strip().split("\\s+"))), params));
      } catch (URISyntaxException | IllegalArgumentException e) {
        bad.add("a Link to '" + ref + "' was ignored: not a URI");
      }
    }
  }

  /** The parameters after a target, up to the comma that ends the link. */
  private static Map<String, String> params(String v, Tokenizer.Cursor c) {
    Map<String, String> params = new HashMap<>();
    while (true) {
      TOKENS.skipWhiteSpace(v, c);
      if (c.atEnd() || v.charAt(c.getPos()) == ',') {
        return params;
      }
      if (v.charAt(c.getPos()) == ';') {
        c.updatePos(c.getPos() + 1);
        continue;
      }
      String name = TOKENS.parseToken(v, c, NAME_END).toLowerCase(Locale.ROOT);
      String value = "";
      if (!c.atEnd() && v.charAt(c.getPos()) == '=') {
        c.updatePos(c.getPos() + 1);
        value = TOKENS.parseValue(v, c, VALUE_END);
      }
      if (!name.isEmpty()) {
        // RFC 8288 3.3: a rel after the first is ignored, as are repeats of the other parameters here
        params.putIfAbsent(name, value);
      }
    }
  }
}
