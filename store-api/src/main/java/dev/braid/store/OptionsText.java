package dev.braid.store;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A queue entry's options as stores keep them: a {@code key=value} line per option. Every store
 * writes this one encoding, so an entry reads the same from any of them, and the text stays
 * readable in a database's own shell. Options are flat strings chosen by the engine (numbers,
 * {@code algorithm=hex}); a key with {@code =} or a line break, or a value with a line break, is
 * refused.
 */
public final class OptionsText {
  private OptionsText() {}

  /**
   * The stored text of {@code options}; throws IllegalArgumentException for an option it cannot
   * hold.
   *
   * @param options the options to store
   * @return one {@code key=value} line per option
   * @throws IllegalArgumentException for a key with {@code =} or a line break, or a value with a
   *     line break
   */
  public static String encode(Map<String, String> options) {
    StringBuilder b = new StringBuilder();
    options.forEach((k, v) -> {
      if (k.contains("=") || k.contains("\n") || v.contains("\n")) {
        throw new IllegalArgumentException("option " + k + " cannot be stored");
      }
      b.append(k).append('=').append(v).append('\n');
    });
    return b.toString();
  }

  /**
   * {@return the options of stored {@code text}, in their stored order}
   *
   * @param text the text {@link #encode} wrote
   */
  public static Map<String, String> decode(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        out.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return out;
  }
}
