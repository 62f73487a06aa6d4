package dev.braid.cli.mcp;

import dev.braid.core.Checksum;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns {@code add_download}'s arguments into the request to add. Its folder is the one the call
 * names (absolute, so that a daemon checks it against the folders it may write to, and writes where
 * an in-process engine would), else the server's ({@code braid mcp -d}), else none: the engine's
 * side then chooses, as for any add, by its rules' category for the URL, else its download folder
 * (an in-process engine's is the working directory of {@code braid mcp}, a daemon's its own -d).
 */
public final class AddRequests {
  /** The arguments of add_download; the input schema names the same. */
  static final String URL = "url";
  static final String FOLDER = "folder";
  static final String FILE_NAME = "file_name";
  static final String CHECKSUM = "checksum";
  static final String CONNECTIONS = "connections";

  private final Path defaultFolder;

  /**
   * Requests whose folder, when the call names none, is {@code defaultFolder}.
   *
   * @param defaultFolder the folder of downloads whose call names none (absolute), or null for the engine's choice
   */
  public AddRequests(Path defaultFolder) {
    if (defaultFolder != null && !defaultFolder.isAbsolute()) {
      throw new IllegalArgumentException("the default folder must be absolute, not " + defaultFolder);
    }
    this.defaultFolder = defaultFolder;
  }

  /**
   * {@return the request the arguments describe}
   *
   * @param arguments add_download's arguments
   * @throws ToolArgumentException when one is missing or invalid (the URL, the folder, the file name, the checksum)
   */
  public DownloadRequest request(ToolArguments arguments) throws ToolArgumentException {
    String url = arguments.text(URL);
    Optional<Path> folder = folder(arguments.optionalText(FOLDER));
    Optional<String> name = arguments.optionalText(FILE_NAME);
    OptionalInt connections = arguments.optionalInt(CONNECTIONS, 1, DownloadRequest.MAX_CONNECTIONS);
    try {
      DownloadRequestBuilder b = DownloadRequest.builder(url).directory(folder.orElse(null));
      if (name.isPresent()) {
        // the engine's own folder is known on its side only: a name needs a folder here
        b.file(folder.orElseThrow(() -> new ToolArgumentException(FILE_NAME + " needs a folder: give " + FOLDER
            + " too (braid mcp was started without -d)")).resolve(plainName(name.get())));
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

  private Optional<Path> folder(Optional<String> given) throws ToolArgumentException {
    if (given.isEmpty()) {
      return Optional.ofNullable(defaultFolder);
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
    return Optional.of(folder.normalize());
  }

  /** A file name that stays in its folder: no separator, not . or .. */
  private static String plainName(String name) throws ToolArgumentException {
    if (name.contains("/") || name.contains("\\") || name.equals(".") || name.equals("..") || name.indexOf('\0') >= 0) {
      throw new ToolArgumentException(FILE_NAME + " must be a file name, not a path (use folder for the folder): " + name);
    }
    return name;
  }
}
