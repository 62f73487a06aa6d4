package dev.braid.gui;

import java.nio.file.Path;
import java.util.List;

/**
 * What the add dialog (or a drop) asks for: one or more files into a folder, or the files a
 * Metalink describes.
 *
 * @param entries the files, each with its own mirrors and checksum (none for a Metalink)
 * @param folder where they go
 * @param metalink the Metalink whose files to add, or null
 * @param inOrder whether the files are fetched from their first byte on, to be played while they
 *     download ({@code braid get --sequential}); a Metalink's files are fetched as usual
 */
record AddRequest(List<Entry> entries, Path folder, MetalinkSource metalink, boolean inOrder) {
  AddRequest {
    entries = List.copyOf(entries);
  }

  AddRequest(List<Entry> entries, Path folder) {
    this(entries, folder, null, false);
  }

  /** This request, its files fetched in order or not. */
  AddRequest inOrder(boolean inOrder) {
    return new AddRequest(entries, folder, metalink, inOrder);
  }

  /**
   * One file to download.
   *
   * @param url its first URL
   * @param mirrors more URLs of the same bytes
   * @param checksum expected "algo=hex", or null
   * @param fileName a name to save it under, or null for the server's
   */
  record Entry(String url, List<String> mirrors, String checksum, String fileName) {
    Entry {
      mirrors = List.copyOf(mirrors);
    }

    static Entry of(String url) {
      return new Entry(url, List.of(), null, null);
    }
  }
}
