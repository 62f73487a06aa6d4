package dev.braid.core.internal.queue;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadRequest;
import dev.braid.store.DownloadState;
import dev.braid.store.EntryRetry;
import dev.braid.store.QueueEntry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 38: a sequential download stays sequential when the queue runs it from its stored entry (a resume, a daemon). */
class RequestCodecTest {
  @Test
  void sequentialIsStoredWithTheEntryAndReadBack() throws Exception {
    assertTrue(stored(DownloadRequest.builder("http://127.0.0.1:1/film.mkv").sequential(true).build()).sequential());
    DownloadRequest usual = DownloadRequest.builder("http://127.0.0.1:1/film.mkv").build();
    assertFalse(stored(usual).sequential());
    assertFalse(RequestCodec.options(usual).containsKey("sequential"), "an ordinary entry's options are unchanged");
  }

  private static DownloadRequest stored(DownloadRequest r) throws Exception {
    QueueEntry e = new QueueEntry(1, RequestCodec.urls(r), null, Path.of("/tmp"), RequestCodec.options(r), 0,
        DownloadState.QUEUED, null, null, null, -1, 0, null, 0, EntryRetry.NONE);
    return RequestCodec.decode(e, Map.of());
  }
}
