package dev.braid.core;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.testserver.Content;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Braid#submitAll}: one store transaction for the new downloads, and the effect of submitting them one by one. */
class SubmitAllTest extends DownloadHarness {

  @Test
  void aListAddsInItsOrderAndWhatItRepeatsOrTheQueueHoldsIsContinued() throws Exception {
    for (int i = 0; i < 6; i++) {
      server.serve("/s" + i, Content.random(1000, 600 + i));
    }
    Download held = braid.submitPaused(request("/s2", dir.resolve("s2")).build());
    List<DownloadRequest> list = new ArrayList<>();
    list.add(request("/s0", dir.resolve("s0")).build());
    list.add(request("/s1", dir.resolve("s1")).build());
    // in the queue already: continued, not added twice
    list.add(request("/s2", dir.resolve("s2")).build());
    list.add(request("/s3", dir.resolve("s3")).build());
    // the same as the first: the same download
    list.add(request("/s0", dir.resolve("s0")).build());
    // another URL for the file of the second (a refreshed link): that download, continued
    list.add(request("/s5", dir.resolve("s1")).build());
    list.add(request("/s4", dir.resolve("s4")).build());

    List<Download> added = braid.submitAll(list, true);

    assertEquals(list.size(), added.size());
    assertEquals(held.id(), added.get(2).id());
    assertEquals(added.get(0).id(), added.get(4).id());
    assertEquals(added.get(1).id(), added.get(5).id());
    List<Long> fresh = List.of(added.get(0).id(), added.get(1).id(), added.get(3).id(), added.get(6).id());
    assertEquals(fresh.stream().sorted().toList(), fresh, "new downloads take ids in the list's order");
    assertTrue(fresh.get(0) > held.id());
    assertEquals(5, braid.downloads().size(), "one download per file");
    assertTrue(added.stream().allMatch(d -> d.state() == DownloadState.PAUSED));
    assertEquals(List.of(), server.requests().stream().map(r -> r.path()).toList(), "paused downloads fetched");
  }

  @Test
  void aListAddedQueuedIsFetchedWhole() throws Exception {
    List<Content> contents = new ArrayList<>();
    List<DownloadRequest> list = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Content c = Content.random(3_000 + i, 700 + i);
      contents.add(c);
      server.serve("/q" + i, c);
      list.add(request("/q" + i, dir.resolve("q" + i)).build());
    }
    List<Download> added = braid.submitAll(list, false);
    for (int i = 0; i < added.size(); i++) {
      assertEquals(contents.get(i).sha256Hex(), sha256(await(added.get(i)).file()), "file " + i);
    }
  }
}
