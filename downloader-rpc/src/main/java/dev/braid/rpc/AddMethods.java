package dev.braid.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Gid;
import dev.braid.core.LocalFileException;
import dev.braid.store.DownloadState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code aria2.addUri(uris, options, position)}: the URIs are one file's (the first, then
 * mirrors); the answer is the new download's gid. With a position (0-based) the new download
 * is moved there in the waiting list, as {@code changePosition(gid, position, "POS_SET")} would
 * (a download that started at once, in a free slot, has no place in it to take). In a
 * {@code system.multicall}, consecutive adds share the store's transaction ({@link #addAll}).
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
    d.add("aria2.addUri", this::addOne, this::addAll);
  }

  /** One call's request, whether it is added paused, and its position (-1: none). */
  private record Call(AddOptions.Added added, int position) {}

  private Call parse(Params p) throws RpcException {
    AddOptions.Added added = options.request(p.strings(0), p.object(1));
    int position = p.has(2) ? p.integer(2) : -1;
    if (p.has(2) && position < 0) {
      throw new RpcException(RpcException.INVALID_PARAMS, "position must be 0 or more, not " + position);
    }
    return new Call(added, position);
  }

  private JsonNode addOne(Params p) throws RpcException {
    return add(parse(p));
  }

  private JsonNode add(Call call) throws RpcException {
    try {
      AddOptions.Added added = call.added();
      Download download = added.paused() ? braid.submitPaused(added.request()) : braid.submit(added.request());
      if (call.position() >= 0 && download.state() != DownloadState.ACTIVE && download.state() != DownloadState.COMPLETED) {
        try {
          positions.changePosition(download.id(), call.position(), "POS_SET");
        } catch (RpcException started) {
          // the queue started it in the meantime: it is no longer waiting, and is added all the same
        }
      }
      return TextNode.valueOf(Gid.of(download.id()));
    } catch (LocalFileException e) {
      throw RpcException.failed(e.getMessage());
    }
  }

  /**
   * Consecutive adds of a multicall (a client's list of links), with the same effect as one by
   * one: runs of calls without a position, paused or not alike, are submitted together (one store
   * transaction for their new downloads); a call with a position is added on its own, in its turn,
   * as its move depends on what is waiting at that moment.
   */
  private List<Object> addAll(List<Params> calls) {
    Object[] out = new Object[calls.size()];
    List<Integer> run = new ArrayList<>();
    List<DownloadRequest> requests = new ArrayList<>();
    boolean runPaused = false;
    for (int i = 0; i < calls.size(); i++) {
      Call call;
      try {
        call = parse(calls.get(i));
      } catch (RpcException e) {
        out[i] = e;
        continue;
      }
      if (call.position() >= 0 || (!run.isEmpty() && call.added().paused() != runPaused)) {
        submit(run, requests, runPaused, out);
      }
      if (call.position() >= 0) {
        try {
          out[i] = add(call);
        } catch (RpcException e) {
          out[i] = e;
        } catch (RuntimeException e) {
          out[i] = Dispatcher.failure(e);
        }
        continue;
      }
      run.add(i);
      requests.add(call.added().request());
      runPaused = call.added().paused();
    }
    submit(run, requests, runPaused, out);
    return Arrays.asList(out);
  }

  /** Submits a run of adds together, puts each gid or failure in its place, and empties the run. */
  private void submit(List<Integer> run, List<DownloadRequest> requests, boolean paused, Object[] out) {
    if (run.isEmpty()) {
      return;
    }
    try {
      List<Download> added = braid.submitAll(requests, paused);
      for (int k = 0; k < run.size(); k++) {
        out[run.get(k)] = TextNode.valueOf(Gid.of(added.get(k).id()));
      }
    } catch (LocalFileException e) {
      run.forEach(i -> out[i] = RpcException.failed(e.getMessage()));
    } catch (RuntimeException e) {
      RpcException failed = Dispatcher.failure(e);
      run.forEach(i -> out[i] = failed);
    }
    run.clear();
    requests.clear();
  }
}
