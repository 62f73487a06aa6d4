package dev.braid.core;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A download's end as a {@link DownloadHook} hears it: it completed, or it failed.
 *
 * @param kind completed or failed
 * @param id the queue's id of the download
 * @param url the URL it was fetched from last
 * @param file the final file (for a failure, the one it was being written to), null when none was known yet
 * @param length the file's length in bytes, -1 when not known
 * @param failure why it failed, null when it completed
 */
public record HookEvent(Kind kind, long id, String url, Path file, long length, Throwable failure) {
  /** The two ends a hook can be called for. */
  public enum Kind {
    /** The file is complete, verified and under its final name. */
    COMPLETE,
    /** The download stopped on an error (not a pause); its bytes are kept. */
    ERROR
  }

  /**
   * Checks its arguments: a kind and a URL are required, and a failure exactly for
   * {@link Kind#ERROR}.
   *
   * @param kind completed or failed
   * @param id the queue's id of the download
   * @param url the URL it was fetched from last
   * @param file the final file, or null
   * @param length the file's length in bytes, or -1
   * @param failure why it failed, or null when it completed
   */
  public HookEvent {
    if (kind == null || url == null || (kind == Kind.ERROR) != (failure != null)) {
      throw new IllegalArgumentException("a hook event needs a kind, a URL, and a failure exactly when it failed");
    }
  }

  /** {@return the id as aria2's JSON-RPC (and {@code braid get --detach}) shows it: 16 lower-case hex digits} */
  public String gid() {
    return Gid.of(id);
  }

  /** {@return the file as a hook's argument: its path, or the empty string when none was known (as aria2 passes it)} */
  public String path() {
    return file == null ? "" : file.toString();
  }

  /** {@return the failure's message, empty when it completed} */
  public String errorMessage() {
    return failure == null ? "" : String.valueOf(failure.getMessage());
  }

  /** {@return the failure's kind (its exception's simple name, as the queue records it before any detail), empty when it completed} */
  public String errorKind() {
    return failure == null ? "" : failure.getClass().getSimpleName();
  }

  /** {@return the file, if one was known} */
  public Optional<Path> fileIfKnown() {
    return Optional.ofNullable(file);
  }
}
