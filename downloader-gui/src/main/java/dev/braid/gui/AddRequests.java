package dev.braid.gui;

import dev.braid.client.MetalinkAdd;
import dev.braid.core.Checksum;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadRequestBuilder;
import dev.braid.core.InvalidRequestException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Set;

/** What the add dialog asked for, as the client port takes it: a request per file, a Metalink add per document. */
final class AddRequests {
  private AddRequests() {}

  /**
   * One file of the dialog into {@code folder}, with the window's cap of connections per download
   * (the host rules of the engine's side apply when the client adds it), fetched from its first
   * byte on when {@code inOrder}.
   *
   * @throws InvalidRequestException for a URL or checksum the engine would refuse
   * @throws IllegalArgumentException for a file name that names no file
   */
  static DownloadRequest of(AddRequest.Entry e, Path folder, GuiSettings settings, boolean inOrder)
      throws InvalidRequestException {
    // the folder the person chose, which the engine's side makes when missing, with or without a name
    DownloadRequestBuilder b = DownloadRequest.builder(e.url()).directory(folder)
        .maxConnections(Math.min(DownloadRequest.MAX_CONNECTIONS, settings.connectionsPerDownload()))
        .sequential(inOrder);
    if (e.fileName() != null && !e.fileName().isBlank()) {
      // a list can come from anywhere (a dropped file): its out= names a file, never a path out of the folder
      b.file(folder.resolve(safeName(e.fileName())));
    }
    if (!e.mirrors().isEmpty()) {
      b.mirrors(e.mirrors());
    }
    if (e.checksum() != null) {
      b.checksum(Checksum.parse(e.checksum()));
    }
    return b.build();
  }

  /** Every file of the Metalink into {@code folder}: a URL's document is fetched by the engine's side, a local one's bytes go with it. */
  static MetalinkAdd metalink(MetalinkSource source, Path folder) {
    return source.url() != null ? new MetalinkAdd(URI.create(source.url()), null, folder, Set.of())
        : new MetalinkAdd(null, source.document(), folder, Set.of());
  }

  /** The last part of {@code name}: a name given with a list stays inside the folder. */
  static String safeName(String name) {
    String last = name.replace('\\', '/');
    last = last.substring(last.lastIndexOf('/') + 1).strip();
    if (last.isEmpty() || last.equals(".") || last.equals("..")) {
      throw new IllegalArgumentException("out=" + name + " is not a file name");
    }
    return last;
  }
}
