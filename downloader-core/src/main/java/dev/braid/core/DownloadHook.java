package dev.braid.core;

import java.net.URI;
import java.time.Duration;
import java.util.function.Function;

/**
 * Something to do when a download ends: run a command, POST to a URL, or any code. Given to
 * {@link BraidBuilder#onDownloadComplete} and {@link BraidBuilder#onDownloadError}, it runs on
 * Braid's hook threads, never on the engine's: a slow hook delays no download. It is interrupted at
 * its time bound ({@link BraidBuilder#hookTimeout}) and must then return; whatever it throws is
 * reported to {@link BraidBuilder#hookFailures} and changes nothing about the download.
 */
@FunctionalInterface
public interface DownloadHook {
  /**
   * Does the hook's work for {@code event}.
   *
   * @param timeout how long it may take; the calling thread is interrupted after that
   * @param event the download's end
   * @throws Exception any failure, reported and otherwise ignored
   */
  void run(HookEvent event, Duration timeout) throws Exception;

  /**
   * A shell command, as aria2's {@code --on-download-complete}: {@code /bin/sh -c} runs it with
   * three arguments appended, the gid, the number of files (1) and the file's path (empty when
   * none was known). Its standard output and error go to this process's standard error, its input
   * is empty; {@code BRAID_EVENT} ({@code complete} or {@code error}) and, for an error,
   * {@code BRAID_ERROR} (the message) are added to its environment, nothing else. A non-zero exit
   * is a failure; at the time bound the command and every process it started are killed.
   *
   * @param command the shell command
   * @return the hook
   */
  static DownloadHook command(String command) {
    return new CommandHook(command);
  }

  /**
   * A POST of {@code body(event)} as {@code application/json} to {@code url} (http or https); an
   * answer other than 2xx, or none within the time bound, is a failure. Redirects are not followed.
   *
   * @param url where to POST
   * @param body the JSON document to send for an event
   * @return the hook
   * @throws IllegalArgumentException when {@code url} is not an absolute http or https URL
   */
  static DownloadHook webhook(URI url, Function<HookEvent, String> body) {
    return new Webhook(url, body);
  }
}
