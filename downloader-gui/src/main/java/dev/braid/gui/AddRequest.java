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
 */
record AddRequest(List<Entry> entries, Path folder, MetalinkSource metalink) {
  AddRequest {
    entries = List.copyOf(entries);
  }

  AddRequest(List<Entry> entries, Path folder) {
    this(entries, folder, null);
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
