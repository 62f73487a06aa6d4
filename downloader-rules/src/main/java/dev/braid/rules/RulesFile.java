package dev.braid.rules;

import dev.braid.core.rules.Rules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the rules file is and how it reads: {@code $XDG_CONFIG_HOME/braid/rules.toml}, else
 * {@code ~/.config/braid/rules.toml}; a TOML file of {@code [hosts."PATTERN"]} and
 * {@code [categories.NAME]} tables (README.md, "Per-host rules and categories"). A missing file at
 * the default place means no rules; a missing file the user named is an error.
 */
public final class RulesFile {
  private RulesFile() {}

  /** The default location for {@code environment} (e.g. {@code System.getenv()}) and the user's {@code home}. */
  public static Path defaultLocation(Map<String, String> environment, Path home) {
    String xdg = environment.get("XDG_CONFIG_HOME");
    // the XDG spec: a relative value is invalid and is ignored
    Path config = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".config");
    return config.resolve("braid").resolve("rules.toml");
  }

  /** The default location for this process's environment and user. */
  public static Path defaultLocation() {
    return defaultLocation(System.getenv(), userHome());
  }

  /**
   * The rules a front end runs with: none when {@code noRules}; else the file {@code given}
   * (which must exist), else the default location's (none when it does not exist).
   *
   * @throws RulesFileException when the file cannot be read or is malformed
   */
  public static Rules load(Path given, boolean noRules) throws RulesFileException {
    if (noRules) {
      return Rules.NONE;
    }
    if (given != null) {
      return read(given);
    }
    Path file = defaultLocation();
    return Files.exists(file) ? read(file) : Rules.NONE;
  }

  /**
   * Reads {@code file}.
   *
   * @throws RulesFileException when it cannot be read, is not TOML, or has an unknown key or a bad value
   */
  public static Rules read(Path file) throws RulesFileException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new RulesFileException(file, 0, "", "no such file");
    } catch (IOException e) {
      throw new RulesFileException(file, 0, "", "cannot read it: " + e.getMessage());
    }
    return parse(text, file);
  }

  /**
   * Reads rules from {@code text}; {@code file} names it in errors.
   *
   * @throws RulesFileException when it is not TOML, or has an unknown key or a bad value
   */
  public static Rules parse(String text, Path file) throws RulesFileException {
    // Jackson is touched only here: a start without a rules file loads none of it
    return RulesReader.parse(text, file, userHome());
  }

  private static Path userHome() {
    return Path.of(System.getProperty("user.home"));
  }
}
