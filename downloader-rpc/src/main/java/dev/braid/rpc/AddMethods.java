package dev.braid.rpc;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadState;
import dev.braid.core.LocalFileException;

/**
 * {@code aria2.addUri(uris, options, position)}: the URIs are one file's (the first, then
 * mirrors); the answer is the new download's gid. With a position (0-based) the new download
 * is moved there in the waiting list, as {@code changePosition(gid, position, "POS_SET")} would
 * (a download that started at once, in a free slot, has no place in it to take).
 */
final class AddMethods {
  private final Braid braid;
  private final AddOptions options;
  private final PositionMethods positions;

  AddMethods(Braid braid, AddOptions options, PositionMethods positions) {
    this.braid = braid;
    this.options = options;
    this.positions = positions;
  }

  void addTo(Dispatcher d) {
    d.add("aria2.addUri", p -> {
      AddOptions.Added added = options.request(p.strings(0), p.object(1));
      int position = p.has(2) ? p.integer(2) : -1;
      if (p.has(2) && position < 0) {
        throw new RpcException(RpcException.INVALID_PARAMS, "position must be 0 or more, not " + position);
      }
      try {
        Download download = added.paused() ? braid.submitPaused(added.request()) : braid.submit(added.request());
        if (position >= 0 && download.state() != DownloadState.ACTIVE && download.state() != DownloadState.COMPLETED) {
          try {
            positions.changePosition(download.id(), position, "POS_SET");
          } catch (RpcException started) {
            // the queue started it in the meantime: it is no longer waiting, and is added all the same
          }
        }
        return TextNode.valueOf(Gid.of(download.id()));
      } catch (LocalFileException e) {
        throw RpcException.failed(e.getMessage());
      }
    });
  }
}
