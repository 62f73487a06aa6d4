package dev.braid.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A download as submitted to the queue.
 *
 * @param id the store's key, shown to users and never reused
 * @param urls the URL, then mirrors of the same file
 * @param file the exact target file, or null when the server's name is used
 * @param directory the folder for a server-chosen name
 * @param options the remaining request settings as strings (see the core's request codec)
 * @param priority higher runs first; equal priorities run in submission order
 * @param state where it stands
 * @param error the last error message, or null
 * @param errorKind the kind of the last error as the core writes it (the failure's kind and detail,
 *     which the core reads back after a restart), or null
 * @param target the final file once known, or null
 * @param length total bytes once known, else -1
 * @param done bytes on disk at the last heartbeat of its owner
 * @param owner {@code host:pid:start} of the process driving it, or null
 * @param heartbeatMillis when its owner last reported
 * @param retry where it stands in waiting out an outage ({@link EntryRetry#NONE} when it is not)
 */
public record QueueEntry(long id, List<String> urls, Path file, Path directory, Map<String, String> options,
    int priority, DownloadState state, String error, String errorKind, Path target, long length, long done,
    String owner, long heartbeatMillis, EntryRetry retry) {
  /**
   * Copies the URLs and the options, so that the entry stays as it was read.
   *
   * @param id the store's key
   * @param urls the URL, then mirrors
   * @param file the exact target file, or null
   * @param directory the folder for a server-chosen name
   * @param options the remaining request settings
   * @param priority higher runs first
   * @param state where it stands
   * @param error the last error message, or null
   * @param errorKind the kind of the last error, or null
   * @param target the final file once known, or null
   * @param length total bytes once known, else -1
   * @param done bytes on disk at the last heartbeat
   * @param owner the process driving it, or null
   * @param heartbeatMillis when its owner last reported
   * @param retry where it stands in waiting out an outage
   */
  public QueueEntry {
    urls = List.copyOf(urls);
    options = Map.copyOf(options);
    if (retry == null) {
      throw new IllegalArgumentException("an entry needs its retry state (EntryRetry.NONE for none)");
    }
  }

  /** {@return the URL the user asked for first} */
  public String url() {
    return urls.get(0);
  }
}
