package dev.braid.cli.mcp;

import dev.braid.core.Checksum;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.rules.Category;
import dev.braid.core.rules.Rules;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns {@code add_download}'s arguments into the request to add, with its folder chosen as
 * {@code braid get} chooses it: the folder the call names (absolute), else the server's default
 * folder ({@code braid mcp -d}), else the category the rules give the URL, else the working
 * directory of {@code braid mcp}. The folder is always absolute, so that a daemon checks it
 * against the folders it may write to and writes where an in-process engine would.
 */
public final class AddRequests {
  /** The arguments of add_download; the input schema names the same. */
  static final String URL = "url";
  static final String FOLDER = "folder";
  static final String FILE_NAME = "file_name";
  static final String CHECKSUM = "checksum";
  static final String CONNECTIONS = "connections";

  private final Path defaultFolder;
  private final Rules rules;
  private final Path workingDirectory;

  /**
   * Requests whose folder, when the call names none, is {@code defaultFolder}, else the rules' category.
   *
   * @param defaultFolder the folder of downloads whose call names none (absolute), or null for the rules' category,
   *     else {@code workingDirectory}
   * @param rules the rules whose categories give a folder
   * @param workingDirectory the last default (absolute)
   */
  public AddRequests(Path defaultFolder, Rules rules, Path workingDirectory) {
    if (rules == null || workingDirectory == null || !workingDirectory.isAbsolute()
        || (defaultFolder != null && !defaultFolder.isAbsolute())) {
      throw new IllegalArgumentException("adds need rules and absolute default folders");
    }
    this.defaultFolder = defaultFolder;
    this.rules = rules;
    this.workingDirectory = workingDirectory;
  }

  /**
   * {@return the request the arguments describe}
   *
   * @param arguments add_download's arguments
   * @throws ToolArgumentException when one is missing or invalid (the URL, the folder, the file name, the checksum)
   */
  public DownloadRequest request(ToolArguments arguments) throws ToolArgumentException {
    String url = arguments.text(URL);
    Path folder = folder(arguments.optionalText(FOLDER), url);
    Optional<String> name = arguments.optionalText(FILE_NAME);
    OptionalInt connections = arguments.optionalInt(CONNECTIONS, 1, DownloadRequest.MAX_CONNECTIONS);
    try {
      DownloadRequestBuilder b = DownloadRequest.builder(url).directory(folder);
      if (name.isPresent()) {
        b.file(folder.resolve(plainName(name.get())));
      }
      Optional<String> checksum = arguments.optionalText(CHECKSUM);
      if (checksum.isPresent()) {
        b.checksum(Checksum.parse(checksum.get()));
      }
      connections.ifPresent(b::connections);
      return b.build();
    } catch (InvalidRequestException e) {
      throw new ToolArgumentException(e.getMessage());
    }
  }

  private Path folder(Optional<String> given, String url) throws ToolArgumentException {
    if (given.isEmpty()) {
      if (defaultFolder != null) {
        return defaultFolder;
      }
      return rules.categoryFor(url).map(Category::folder).orElse(workingDirectory);
    }
    Path folder;
    try {
      folder = Path.of(given.get());
    } catch (InvalidPathException e) {
      throw new ToolArgumentException(FOLDER + " is no path: " + e.getMessage());
    }
    if (!folder.isAbsolute()) {
      throw new ToolArgumentException(FOLDER + " must be an absolute path, not " + given.get());
    }
    return folder.normalize();
  }

  /** A file name that stays in its folder: no separator, not . or .. */
  private static String plainName(String name) throws ToolArgumentException {
    if (name.contains("/") || name.contains("\\") || name.equals(".") || name.equals("..") || name.indexOf('\0') >= 0) {
      throw new ToolArgumentException(FILE_NAME + " must be a file name, not a path (use folder for the folder): " + name);
    }
    return name;
  }
}
