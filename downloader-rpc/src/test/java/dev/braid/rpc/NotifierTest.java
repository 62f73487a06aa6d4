package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Gid;
import dev.braid.store.DownloadState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** aria2's notifications from the engine's state reports, over real downloads of a real (idle) queue. */
class NotifierTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;
  private Braid braid;
  private final List<String> sent = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    braid = Braid.builder().stateDatabase(work.resolve("state.db")).downloadDirectory(work).build();
  }

  @AfterEach
  void stop() {
    braid.close();
  }

  private Download download(int n) throws Exception {
    return braid.submitPaused(DownloadRequest.builder("http://127.0.0.1:9/f" + n).file(work.resolve("f" + n)).build());
  }

  private List<String> heard(Download d) throws Exception {
    List<String> out = new ArrayList<>();
    for (String s : sent) {
      var n = JSON.readTree(s);
      assertEquals(Gid.of(d.id()), n.get("params").get(0).get("gid").asText());
      out.add(n.get("method").asText().substring("aria2.".length()));
    }
    sent.clear();
    return out;
  }

  @Test
  void aRunIsAnnouncedOnceAndEachPauseAndEndOnce() throws Exception {
    Notifier notifier = new Notifier(JSON, sent::add);
    Download d = download(1);
    notifier.stateChanged(d, DownloadState.PAUSED);
    assertEquals(List.of(), heard(d), "added paused");
    notifier.stateChanged(d, DownloadState.ACTIVE);
    notifier.stateChanged(d, DownloadState.ACTIVE);
    notifier.stateChanged(d, DownloadState.QUEUED);
    notifier.stateChanged(d, DownloadState.ACTIVE);
    assertEquals(List.of("onDownloadStart"), heard(d), "reported twice and waiting again within one run");
    notifier.stateChanged(d, DownloadState.PAUSED);
    notifier.stateChanged(d, DownloadState.QUEUED);
    notifier.stateChanged(d, DownloadState.ACTIVE);
    notifier.stateChanged(d, DownloadState.COMPLETED);
    notifier.stateChanged(d, DownloadState.COMPLETED);
    assertEquals(List.of("onDownloadPause", "onDownloadStart", "onDownloadComplete"), heard(d));
    notifier.removed(d);
    assertEquals(List.of("onDownloadStop"), heard(d));
    assertEquals(1, notifier.remembered(), "the removal only");
  }

  @Test
  void aRemovedDownloadIsAnnouncedNoMoreThoughItsRunReportsLate() throws Exception {
    Notifier notifier = new Notifier(JSON, sent::add);
    Download d = download(1);
    notifier.stateChanged(d, DownloadState.ACTIVE);
    notifier.removed(d);
    notifier.stateChanged(d, DownloadState.ACTIVE);
    notifier.stateChanged(d, DownloadState.PAUSED);
    assertEquals(List.of("onDownloadStart", "onDownloadStop"), heard(d), "aria2 says nothing of a download after its stop");
  }

  @Test
  void endedDownloadsAreRememberedOnlyUpToItsBound() throws Exception {
    Notifier notifier = new Notifier(JSON, sent::add, 4);
    List<Download> ds = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      Download d = download(i);
      ds.add(d);
      notifier.stateChanged(d, DownloadState.ACTIVE);
      notifier.stateChanged(d, DownloadState.FAILED);
      assertEquals(List.of("onDownloadStart", "onDownloadError"), heard(d));
    }
    assertTrue(notifier.remembered() <= 4, "remembered " + notifier.remembered() + " of 12 ended downloads");
    Download last = ds.get(11);
    notifier.stateChanged(last, DownloadState.FAILED);
    assertEquals(List.of(), heard(last), "a repeated end of a recent one");
    notifier.stateChanged(last, DownloadState.ACTIVE);
    assertEquals(List.of("onDownloadStart"), heard(last), "a failed download retried starts a new run");
    for (Download d : ds) {
      notifier.removed(d);
    }
    sent.clear();
    assertTrue(notifier.remembered() <= 4, "remembered " + notifier.remembered() + " of 12 removals");
  }
}
