package dev.braid.client;

import java.net.URI;
import java.nio.file.Path;
import java.util.Set;

/**
 * A Metalink (RFC 5854) to add: where its document comes from, which of its files, and where
 * they go. Exactly one of {@code url} and {@code document} is given.
 *
 * @param url an http(s) URL the engine's side fetches the document from, or null
 * @param document the document's bytes (a local {@code .meta4} the face read), or null
 * @param folder the folder the files go into (their Metalink names are kept inside it)
 * @param selection the 1-based indexes of the files to add, empty for all
 */
public record MetalinkAdd(URI url, byte[] document, Path folder, Set<Integer> selection) {
  /**
   * Checks that exactly one source is given, with a folder, and copies the selection.
   *
   * @param url the document's URL, or null
   * @param document the document's bytes, or null
   * @param folder the folder the files go into
   * @param selection the files to add, empty for all
   */
  public MetalinkAdd {
    if ((url == null) == (document == null) || folder == null) {
      throw new IllegalArgumentException("a Metalink add needs a folder and either a URL or a document");
    }
    selection = Set.copyOf(selection);
    document = document == null ? null : document.clone();
  }
}
