package dev.braid.rpc;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.LocalFileException;

/**
 * {@code aria2.addUri(uris, options, position)}: the URIs are one file's (the first, then
 * mirrors); the answer is the new download's gid. The position is not honoured: Braid starts
 * downloads by priority, then oldest first.
 */
final class AddMethods {
  private final Braid braid;
  private final AddOptions options;

  AddMethods(Braid braid, AddOptions options) {
    this.braid = braid;
    this.options = options;
  }

  void addTo(Dispatcher d) {
    d.add("aria2.addUri", p -> {
      AddOptions.Added added = options.request(p.strings(0), p.object(1));
      try {
        Download download = added.paused() ? braid.submitPaused(added.request()) : braid.submit(added.request());
        return TextNode.valueOf(Gid.of(download.id()));
      } catch (LocalFileException e) {
        throw RpcException.failed(e.getMessage());
      }
    });
  }
}
