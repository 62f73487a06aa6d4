package dev.braid.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.braid.client.BraidClient;
import dev.braid.client.ClientException;
import dev.braid.client.ClientException.Reason;
import dev.braid.client.DownloadEvent;
import dev.braid.client.DownloadEvent.Kind;
import dev.braid.client.DownloadView;
import dev.braid.client.LocalClient;
import dev.braid.client.MetalinkAdd;
import dev.braid.client.remote.DaemonLink;
import dev.braid.client.remote.RemoteClient;
import dev.braid.core.Braid;
import dev.braid.core.DownloadRequest;
import dev.braid.core.Fleet;
import dev.braid.core.KnownHost;
import dev.braid.core.QueueOrder;
import dev.braid.core.rules.HostRule;
import dev.braid.core.rules.Rules;
import dev.braid.store.DownloadState;
import dev.braid.testserver.Content;
import dev.braid.testserver.TestServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One scenario of the client port, run on an engine in this process ({@link LocalClient}) and
 * through a daemon's JSON-RPC ({@link RemoteClient} to an {@link RpcServer} on its local socket):
 * two files added paused with a mirror into a folder that does not exist yet, under a host rule;
 * a page, a status and the counts; a pause of a running download and its resume; followed to
 * completion; a removal with the file; a Metalink URL; an unknown id; a refused URL and an add
 * that cannot be made whole. Each run is checked, and the two runs must see the same.
 */
class BothWaysTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Rules RULES = Rules.of(List.of(HostRule.builder("127.0.0.1").header("X-Rule", "on").build()), List.of());

  @TempDir Path work;

  @Test
  void theSameScenarioGivesTheSameResultsInProcessAndThroughADaemon() throws Exception {
    List<String> local = run(work.resolve("local"), false);
    List<String> remote = run(work.resolve("remote"), true);
    assertEquals(local, remote);
  }

  /** The scenario on one side; what it saw, with paths relative to {@code root}, for the comparison. */
  private List<String> run(Path root, boolean throughDaemon) throws Exception {
    Files.createDirectories(root);
    List<String> seen = new ArrayList<>();
    Content a = Content.random(4 << 20, 1);
    Content b = Content.random(192 * 1024, 2);
    Content c = Content.random(64 * 1024, 3);
    try (TestServer server = TestServer.start()) {
      // paced, so that a's download runs on several connections and the engine learns of its host
      server.serve("/a.bin", a).etag("\"a\"").rateLimitPerConnection(4 << 20);
      server.serve("/mirror/a.bin", a).etag("\"a\"").rateLimitPerConnection(4 << 20);
      // b's one connection stalls once: it is still running when paused
      server.serve("/b.bin", b).stallAfter(32 * 1024, Duration.ofSeconds(3), 1);
      server.serve("/c.bin", c);
      server.serve("/files.meta4", Content.of(metalink("c.bin", c, server.url("/c.bin")).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      server.respond("/missing.meta4", 404);
      try (Side side = throughDaemon ? Side.daemon(root) : Side.local(root)) {
        BraidClient client = side.client;
        Heard events = new Heard();
        client.follow(events::add);
        Path folder = root.resolve("chosen").resolve("new");

        List<Long> ids = client.add(List.of(
            DownloadRequest.builder(server.url("/a.bin")).mirrors(List.of(server.url("/mirror/a.bin"))).directory(folder).build(),
            DownloadRequest.builder(server.url("/b.bin")).directory(folder).connections(1).build()), true);
        long ia = ids.get(0);
        long ib = ids.get(1);
        assertTrue(Files.isDirectory(folder), "the folder is made");
        List<DownloadView> page = client.page(EnumSet.allOf(DownloadState.class), QueueOrder.OLDEST_FIRST, 0, 10);
        assertEquals(List.of(ia, ib), page.stream().map(DownloadView::id).toList());
        assertEquals(List.of(server.url("/mirror/a.bin")), page.get(0).mirrors());
        for (DownloadView v : page) {
          seen.add("page " + v.name() + " " + v.state() + " " + root.relativize(v.directory()) + " mirrors " + v.mirrors().size());
        }
        assertEquals(Map.of(DownloadState.PAUSED, 2L), client.counts());
        seen.add("counts " + client.counts());

        client.resume(ib);
        events.await(ib, Kind.STARTED);
        Fleet fleet = client.fleet();
        assertEquals(fleet.self(), fleet.workers().get(0).name(), "the engine's own worker comes first");
        assertTrue(fleet.workers().get(0).alive());
        assertEquals(List.of(ib), fleet.workers().get(0).downloads(), "it drives the running download");
        seen.add("fleet " + fleet.workers().size() + " worker(s), driving " + fleet.workers().get(0).downloads().size());
        client.pause(ib);
        events.await(ib, Kind.PAUSED);
        DownloadView pausedB = client.download(ib).orElseThrow();
        assertEquals(DownloadState.PAUSED, pausedB.state());
        assertTrue(pausedB.progress().done() < b.size(), "paused before its end");
        seen.add("status " + pausedB.name() + " " + pausedB.state() + " length " + pausedB.progress().length());

        client.resume(ia);
        client.resume(ib);
        events.await(ia, Kind.COMPLETED);
        events.await(ib, Kind.COMPLETED);
        assertEquals(a.sha256Hex(), Content.sha256Hex(folder.resolve("a.bin")));
        assertEquals(b.sha256Hex(), Content.sha256Hex(folder.resolve("b.bin")));
        assertTrue(server.requests().stream().filter(r -> r.path().endsWith("a.bin")).allMatch(r -> "on".equals(r.header("X-Rule"))),
            "the host rule applies to the add");
        List<KnownHost> hosts = client.hosts(10);
        String host = "127.0.0.1:" + URI.create(server.url("/")).getPort();
        assertEquals(List.of(host), hosts.stream().map(KnownHost::host).distinct().toList(), "the one host downloaded from");
        assertTrue(hosts.get(0).connections() >= 2, "a's download ran on several connections: " + hosts.get(0));
        // a's run is shorter than half the speed meter's window: its average is what it reached
        assertTrue(hosts.get(0).bytesPerSecond() > 0, "a's speed is known: " + hosts.get(0));
        assertEquals(Reason.INVALID, refusal(() -> client.hosts(0)));
        seen.add("hosts " + hosts.size() + " over HTTP/2 " + hosts.get(0).overHttp2());
        DownloadView doneA = client.download(ia).orElseThrow();
        seen.add("status " + doneA.name() + " " + doneA.state() + " " + root.relativize(doneA.file()) + " done " + doneA.progress().done()
            + " result " + doneA.resultIfAny().map(r -> root.relativize(r.file()) + " " + r.length()).orElse("none"));

        client.remove(ia, true);
        events.await(ia, Kind.REMOVED);
        assertFalse(Files.exists(folder.resolve("a.bin")), "removed with its file");
        assertTrue(client.download(ia).isEmpty());
        seen.add("removed: " + client.download(ia).isPresent() + " " + client.counts());

        List<Long> fromMetalink = client.addMetalink(new MetalinkAdd(URI.create(server.url("/files.meta4")), null,
            root.resolve("meta"), Set.of()), false);
        assertEquals(1, fromMetalink.size());
        events.await(fromMetalink.get(0), Kind.COMPLETED);
        assertEquals(c.sha256Hex(), Content.sha256Hex(root.resolve("meta").resolve("c.bin")));
        DownloadView meta = client.download(fromMetalink.get(0)).orElseThrow();
        seen.add("metalink " + meta.name() + " " + meta.state() + " " + root.relativize(meta.file()) + " " + meta.checksum());

        seen.add("unknown pause: " + refusal(() -> client.pause(999_999)));
        seen.add("unknown status: " + client.download(999_999).isPresent());
        Map<DownloadState, Long> before = client.counts();
        seen.add("refused url: " + refusal(() -> client.addMetalink(new MetalinkAdd(URI.create(server.url("/missing.meta4")),
            null, root.resolve("meta"), Set.of()), false)));
        Path blocked = root.resolve("a-file");
        Files.writeString(blocked, "not a folder");
        List<DownloadRequest> notWhole = List.of(
            DownloadRequest.builder(server.url("/c.bin")).directory(root.resolve("other")).build(),
            DownloadRequest.builder(server.url("/c.bin")).directory(blocked.resolve("under")).build());
        seen.add("not whole: " + refusal(() -> client.add(notWhole, false)));
        assertEquals(before, client.counts(), "a refused add adds nothing");
        seen.add("counts " + client.counts());
      }
    }
    assertEquals(List.of("unknown pause: NOT_FOUND", "unknown status: false", "refused url: INVALID", "not whole: FAILED"),
        seen.stream().filter(s -> s.startsWith("unknown") || s.startsWith("refused") || s.startsWith("not whole")).toList());
    return seen;
  }

  private interface Call {
    void run() throws ClientException;
  }

  private static ClientException.Reason refusal(Call call) {
    return assertThrows(ClientException.class, call::run).reason();
  }

  /** Every event heard, in order; {@link #await} looks at all of them, so an event heard early is not missed. */
  private static final class Heard {
    private final List<DownloadEvent> all = new ArrayList<>();

    synchronized void add(DownloadEvent e) {
      all.add(e);
      notifyAll();
    }

    /** Waits for {@code kind} of download {@code id}; fails at the deadline. */
    synchronized void await(long id, Kind kind) throws InterruptedException {
      long end = System.nanoTime() + WAIT.toNanos();
      while (!all.contains(new DownloadEvent(id, kind))) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no " + kind + " of #" + id + " within " + WAIT.toSeconds() + " s; heard " + all);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }

  private static String metalink(String name, Content c, String url) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\n"
        + "  <file name=\"" + name + "\">\n    <size>" + c.size() + "</size>\n"
        + "    <hash type=\"sha-256\">" + c.sha256Hex() + "</hash>\n"
        + "    <url priority=\"1\">" + url + "</url>\n  </file>\n</metalink>\n";
  }

  /** One side of the comparison: the client, and what it runs on. */
  private static final class Side implements AutoCloseable {
    final BraidClient client;
    private final RpcServer rpc;
    private final Braid braid;

    private Side(BraidClient client, RpcServer rpc, Braid braid) {
      this.client = client;
      this.rpc = rpc;
      this.braid = braid;
    }

    static Side local(Path root) throws Exception {
      return new Side(new LocalClient(engine(root), RULES), null, null);
    }

    static Side daemon(Path root) throws Exception {
      Braid braid = engine(root);
      Path socket = root.resolve("state.db.rpc-socket");
      RpcServer rpc = RpcServer.start(braid, RpcSettings.builder(root, "k").port(0).rules(RULES).localSocket(socket).build(), () -> { });
      return new Side(RemoteClient.connect(new DaemonLink.Endpoint(rpc.port(), "k", socket, List.of())), rpc, braid);
    }

    private static Braid engine(Path root) throws Exception {
      return Braid.builder().stateDatabase(root.resolve("state.db")).downloadDirectory(root).runQueue(true)
          .maxActiveDownloads(2).build();
    }

    @Override
    public void close() {
      client.close();
      if (rpc != null) {
        rpc.close();
        braid.close();
      }
    }
  }
}
