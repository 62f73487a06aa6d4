package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.client.ClientException;
import dev.braid.client.DownloadEvent;
import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.RemoteClient;
import dev.braid.core.DownloadRequest;
import dev.braid.testserver.Content;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What only the daemon's side of the port does: its secret, its folders, its going away, and
 * the WebSocket wire (BothWaysTest uses the local socket).
 */
class RemoteClientTest extends RpcHarness {
  private RemoteClient connect(String secret) throws ClientException {
    return RemoteClient.connect(new DaemonLink.Endpoint(rpc.port(), secret, null, List.of()));
  }

  @Test
  void overTheWebSocketAnAddIsFollowedToItsEnd() throws Exception {
    Content c = Content.random(128 * 1024, 5);
    server.serve("/f.bin", c);
    try (RemoteClient client = connect("k")) {
      CountDownLatch done = new CountDownLatch(1);
      client.follow(e -> {
        if (e.kind() == DownloadEvent.Kind.COMPLETED) {
          done.countDown();
        }
      });
      long id = client.add(List.of(DownloadRequest.builder(server.url("/f.bin")).build()), false).get(0);
      assertTrue(done.await(20, TimeUnit.SECONDS), "completed");
      assertEquals(work.resolve("f.bin"), client.download(id).orElseThrow().file(), "the daemon's folder, as none was named");
      assertEquals(c.sha256Hex(), Content.sha256Hex(work.resolve("f.bin")));
    }
  }

  @Test
  void aWrongSecretIsUnauthorized() throws Exception {
    try (RemoteClient client = connect("wrong")) {
      assertEquals(ClientException.Reason.UNAUTHORIZED, assertThrows(ClientException.class, client::counts).reason());
    }
  }

  @Test
  void aFolderOutsideTheDaemonsIsRefusedAndNothingIsAdded() throws Exception {
    Path outside = work.getParent().resolve(work.getFileName() + "-outside");
    try (RemoteClient client = connect("k")) {
      List<DownloadRequest> requests = List.of(DownloadRequest.builder(server.url("/a")).directory(work.resolve("in")).build(),
          DownloadRequest.builder(server.url("/b")).directory(outside).build());
      assertEquals(ClientException.Reason.INVALID, assertThrows(ClientException.class, () -> client.add(requests, true)).reason());
      assertEquals(Map.of(), client.counts());
    }
  }

  @Test
  void aDaemonThatWentAwayIsUnreachable() throws Exception {
    try (RemoteClient client = connect("k")) {
      rpc.close();
      assertEquals(ClientException.Reason.UNREACHABLE, assertThrows(ClientException.class, client::counts).reason());
    }
  }
}
