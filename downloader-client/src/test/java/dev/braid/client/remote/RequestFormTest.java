package dev.braid.client.remote;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.core.DownloadRequest;
import org.junit.jupiter.api.Test;

/** Issue 38: a get's --sequential reaches a daemon's engine through braid.add's wire form. */
class RequestFormTest {
  @Test
  void sequentialTravelsAndItsAbsenceToo() throws Exception {
    DownloadRequest inOrder = DownloadRequest.builder("http://127.0.0.1:1/f.mkv").sequential(true).build();
    assertTrue(RequestForm.read(RequestForm.of(inOrder)).sequential());
    DownloadRequest usual = DownloadRequest.builder("http://127.0.0.1:1/f.mkv").build();
    assertFalse(RequestForm.read(RequestForm.of(usual)).sequential());
    assertFalse(RequestForm.of(usual).containsKey("sequential"), "the wire of an ordinary request is unchanged");
  }
}
