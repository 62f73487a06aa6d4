package dev.braid.rules;

import java.nio.file.Path;

/**
 * A rules file that cannot be used: not readable, not TOML, or with an unknown key or a bad value.
 * The message names the file, the line (when known) and the key, as {@code FILE:LINE: KEY: reason}.
 */
public final class RulesFileException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final int line;
  private final String key;

  RulesFileException(Path file, int line, String key, String reason) {
    super(file + (line > 0 ? ":" + line : "") + ": " + (key.isEmpty() ? "" : key + ": ") + reason);
    this.file = file;
    this.line = line;
    this.key = key;
  }

  /** The rules file. */
  public Path file() {
    return file;
  }

  /** The line of the problem, 1-based; 0 when it is not known. */
  public int line() {
    return line;
  }

  /** The dotted key at fault ({@code hosts."example.com".connections}); empty for the file as a whole. */
  public String key() {
    return key;
  }
}
