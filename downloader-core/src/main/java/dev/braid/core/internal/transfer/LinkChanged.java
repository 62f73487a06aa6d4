package dev.braid.core.internal.transfer;

/**
 * Ends a pass because the download was given a new URL ({@link DownloadJob#changeUrl}): the bytes
 * so far are checkpointed, and the next pass probes the new URL and continues only where it
 * proves to serve the same file.
 */
final class LinkChanged extends Exception {
  LinkChanged(String message) {
    super(message, null, false, false);
  }
}
