package dev.braid.gui;

import dev.braid.core.Checksum;
import dev.braid.core.InvalidRequestException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns the add dialog's fields into a request, or says what is wrong in words the dialog shows.
 * The checksum and mirror fields belong to a single file; a list gives each file its own with
 * indented lines.
 */
final class AddForm {
  private AddForm() {}

  /** Braid's own parser decides: known algorithm, right number of digits. */
  static void checkChecksum(String spec) {
    if (!UrlListParser.isChecksum(spec)) {
      throw new IllegalArgumentException("Checksum must be ALGO=HEX, e.g. sha-256=9f86d0…");
    }
    try {
      Checksum.parse(spec);
    } catch (InvalidRequestException e) {
      throw new IllegalArgumentException("Checksum: " + e.getMessage());
    }
  }

  /**
   * @throws IllegalArgumentException with a message for the person typing
   */
  static AddRequest build(String urls, String folder, String checksum, String mirrors) {
    var metalink = MetalinkSource.recognize(urls);
    if (metalink.isPresent()) {
      return metalink(metalink.get(), folder, checksum, mirrors);
    }
    List<AddRequest.Entry> entries = UrlListParser.parse(urls == null ? "" : urls);
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("Enter at least one http(s) URL.");
    }
    for (AddRequest.Entry e : entries) {
      if (e.checksum() != null) {
        checkChecksum(e.checksum());
      }
    }
    Path dir = folder(folder);
    String sum = checksum == null ? "" : checksum.strip();
    List<String> extra = mirrors == null || mirrors.isBlank() ? List.of() : UrlListParser.parse(mirrors).stream()
        .flatMap(e -> java.util.stream.Stream.concat(java.util.stream.Stream.of(e.url()), e.mirrors().stream())).toList();
    if (sum.isEmpty() && extra.isEmpty()) {
      return new AddRequest(entries, dir);
    }
    if (entries.size() > 1) {
      throw new IllegalArgumentException("Checksum and mirrors apply to one file; for a list, indent checksum= or mirror lines under each URL.");
    }
    if (!sum.isEmpty()) {
      checkChecksum(sum);
    }
    AddRequest.Entry e = entries.get(0);
    List<String> allMirrors = new ArrayList<>(e.mirrors());
    allMirrors.addAll(extra);
    String finalSum = sum.isEmpty() ? e.checksum() : sum.toLowerCase(Locale.ROOT);
    return new AddRequest(List.of(new AddRequest.Entry(e.url(), allMirrors, finalSum, e.fileName())), dir);
  }

  /** A Metalink brings its own checksums and mirrors: the fields for one file do not apply. */
  private static AddRequest metalink(MetalinkSource source, String folder, String checksum, String mirrors) {
    if ((checksum != null && !checksum.isBlank()) || (mirrors != null && !mirrors.isBlank())) {
      throw new IllegalArgumentException("A Metalink gives each file its checksum and mirrors: leave those fields empty.");
    }
    Path dir = folder(folder);
    source.checkInto(dir);
    return new AddRequest(List.of(), dir, source, false);
  }

  private static Path folder(String folder) {
    Path dir;
    try {
      dir = Path.of(folder == null ? "" : folder.strip());
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("Not a folder: " + folder);
    }
    if (dir.toString().isEmpty()) {
      throw new IllegalArgumentException("Choose a folder.");
    }
    return dir;
  }
}
