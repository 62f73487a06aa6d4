package dev.braid.gui;

import dev.braid.core.rules.Category;
import dev.braid.core.rules.Rules;
import dev.braid.rules.RulesFile;
import dev.braid.rules.RulesFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rules file the app reads and edits (the one {@code braid get} and {@code braid daemon} read)
 * and the rules last read from it. Saving checks the text first: a file that would not read is
 * never written. Any thread may read {@link #rules()}; saves come from the FX thread.
 */
final class AppRules {
  /** What a new rules file starts as: every line a comment, so it changes nothing until edited. */
  static final String TEMPLATE = """
      # Braid's rules: per-host settings and download folders by type or host.
      # The same file is read by braid get, braid daemon and this app. Options given explicitly
      # (on the command line, in an RPC call, a folder chosen in the Add dialog) win over it.
      #
      # [hosts."example.com"]          # that host; "*.example.com": its subdomains;
      # connections = 4                # ".example.com": it and its subdomains; "*": every host
      # max-connections = 8
      # max-connections-per-host = 8
      # rate-limit = "2M"              # per download, bytes per second
      # user-agent = "Mozilla/5.0"
      # proxy = "socks5://127.0.0.1:1080"   # or "direct"
      # headers = { Referer = "https://example.com/" }
      #
      # [categories.video]
      # extensions = ["mp4", "mkv", "webm"]
      # folder = "~/Downloads/Video"
      """;

  private final Path file;
  private volatile Rules rules;
  private volatile String problem;

  private AppRules(Path file, Rules rules, String problem) {
    this.file = file;
    this.rules = rules;
    this.problem = problem;
  }

  /** No file: nothing applies and there is nothing to edit (tests, a {@code --no-rules} start). */
  static AppRules none() {
    return new AppRules(null, Rules.NONE, null);
  }

  /**
   * Reads {@code file} (absent: no rules yet). A malformed file leaves the app without rules and
   * says why in {@link #problem()}, rather than refusing to start. Blocking: not on the FX thread.
   */
  static AppRules load(Path file) {
    if (!Files.exists(file)) {
      return new AppRules(file, Rules.NONE, null);
    }
    try {
      return new AppRules(file, RulesFile.read(file), null);
    } catch (RulesFileException e) {
      return new AppRules(file, Rules.NONE, e.getMessage());
    }
  }

  Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  Rules rules() {
    return rules;
  }

  /** Why the file could not be used at the last read, or empty. */
  Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** The file's text, or the commented template when it does not exist yet. */
  String text() throws IOException {
    return file != null && Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : TEMPLATE;
  }

  /** Checks {@code text} as the rules file would read, without writing it. */
  Rules check(String text) throws RulesFileException {
    return RulesFile.parse(text, file != null ? file : Path.of("rules.toml"));
  }

  /**
   * Writes {@code text} if it reads as rules (whole: a crash never leaves half a file) and applies
   * it to downloads added from now on.
   *
   * @throws RulesFileException when it does not read; nothing is written then
   */
  void save(String text) throws RulesFileException, IOException {
    if (file == null) {
      throw new IOException("the app runs without a rules file");
    }
    Rules parsed = check(text);
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temp, text, StandardCharsets.UTF_8);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    rules = parsed;
    problem = null;
  }

  /**
   * {@code request} as one request per folder: where it asks for {@code defaultFolder} (the person
   * chose none), each entry goes to its category's folder, if it has one.
   */
  List<AddRequest> byCategory(AddRequest request, Path defaultFolder) {
    Rules r = rules;
    // a Metalink's files go where the person chose, under the names it gives
    if (!request.folder().equals(defaultFolder) || r.categories().isEmpty() || request.metalink() != null) {
      return List.of(request);
    }
    Map<Path, List<AddRequest.Entry>> byFolder = new LinkedHashMap<>();
    for (AddRequest.Entry e : request.entries()) {
      Path folder = r.categoryFor(e.url()).map(Category::folder).orElse(defaultFolder);
      byFolder.computeIfAbsent(folder, f -> new ArrayList<>()).add(e);
    }
    List<AddRequest> out = new ArrayList<>();
    byFolder.forEach((folder, entries) -> out.add(new AddRequest(entries, folder, null, request.inOrder())));
    return out;
  }
}
