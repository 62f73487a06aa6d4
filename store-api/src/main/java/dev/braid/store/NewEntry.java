package dev.braid.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An entry to add to a queue ({@link QueueStore#addAll}).
 *
 * @param urls the URL, then its mirrors; at least one
 * @param file the file asked for, or null to name it from the response
 * @param directory the folder a file without a name goes to
 * @param options the request's options, as the queue keeps them
 * @param priority higher starts first
 * @param owner the submitting process, or null for whichever runs the queue
 * @param state QUEUED, or PAUSED: it waits until someone resumes it
 * @param headers the request's headers (cookies, credentials), written in the same transaction
 *     as the entry (a worker that starts it at once needs them) and kept apart from it: see
 *     {@link QueueStore#headers}; empty for none
 */
public record NewEntry(List<String> urls, Path file, Path directory, Map<String, String> options, int priority,
    String owner, DownloadState state, Map<String, String> headers) {
  /**
   * Checks the parts an entry cannot do without, and copies the lists.
   *
   * @param urls the URL, then its mirrors; at least one
   * @param file the file asked for, or null
   * @param directory the folder; required
   * @param options the request's options
   * @param priority higher starts first
   * @param owner the submitting process, or null
   * @param state QUEUED or PAUSED; required
   * @param headers the request's headers; empty for none
   */
  public NewEntry {
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("an entry needs a URL");
    }
    urls = List.copyOf(urls);
    Objects.requireNonNull(directory, "directory");
    options = Map.copyOf(options);
    Objects.requireNonNull(state, "state");
    headers = Map.copyOf(headers);
  }

  /**
   * An entry without headers.
   *
   * @param urls the URL, then its mirrors; at least one
   * @param file the file asked for, or null
   * @param directory the folder; required
   * @param options the request's options
   * @param priority higher starts first
   * @param owner the submitting process, or null
   * @param state QUEUED or PAUSED; required
   */
  public NewEntry(List<String> urls, Path file, Path directory, Map<String, String> options, int priority, String owner,
      DownloadState state) {
    this(urls, file, directory, options, priority, owner, state, Map.of());
  }

  /**
   * The entry as a store wrote it with {@code id} at {@code now} (ms): queued or paused, no
   * progress yet, its options as the store keeps them. Not read back: a batch adds one every few
   * milliseconds.
   *
   * @param id the id the store gave it
   * @param now when it was written, in ms since the epoch
   * @return the entry as the store holds it now
   */
  public QueueEntry asWritten(long id, long now) {
    return new QueueEntry(id, urls, file, directory, OptionsText.decode(OptionsText.encode(options)), priority, state, null,
        null, null, -1, 0, owner, now, EntryRetry.NONE);
  }
}
