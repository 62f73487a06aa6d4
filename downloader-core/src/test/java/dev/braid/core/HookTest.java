package dev.braid.core;

import dev.braid.store.DownloadState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.braid.testserver.Content;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;

/** Hooks run by real downloads: real scripts (real processes) and a real webhook receiver on loopback. */
class HookTest extends DownloadHarness {
  /** Polled every 10 ms (Awaitility's default is 100), as the loop it replaced: these waits are short. */
  private static final ConditionFactory WAIT = Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10));

  private final BlockingQueue<HookFailure> failures = new LinkedBlockingQueue<>();

  private Braid withHooks(Duration timeout, List<DownloadHook> complete, List<DownloadHook> error) throws LocalFileException {
    braid.close();
    BraidBuilder b = Braid.builder().stateDatabase(dir.resolve("state.db")).readTimeout(Duration.ofSeconds(2))
        .firstBackoff(Duration.ofMillis(20)).maxRetries(0).hookTimeout(timeout).hookFailures(failures::add);
    complete.forEach(b::onDownloadComplete);
    error.forEach(b::onDownloadError);
    braid = b.build();
    return braid;
  }

  private Path script(String name, String body) throws IOException {
    Path s = dir.resolve(name);
    Files.writeString(s, "#!/bin/sh\n" + body + "\n");
    s.toFile().setExecutable(true);
    return s;
  }

  @Test
  void aCompleteHookGetsAria2sArgumentsAndAnErrorHookTheFailure() throws Exception {
    Path args = dir.resolve("args.txt");
    Path errArgs = dir.resolve("err.txt");
    Path hook = script("done.sh", "printf '%s|%s|%s|%s\\n' \"$1\" \"$2\" \"$3\" \"$BRAID_EVENT\" > " + args);
    Path onError = script("err.sh", "printf '%s|%s|%s\\n' \"$1\" \"$BRAID_EVENT\" \"$BRAID_ERROR\" > " + errArgs);
    withHooks(Duration.ofSeconds(10), List.of(DownloadHook.command(hook.toString())),
        List.of(DownloadHook.command(onError.toString())));
    Content c = Content.random(256 * 1024, 7);
    server.serve("/f.bin", c);
    Path file = dir.resolve("f.bin");
    Download d = braid.submit(request("/f.bin", file).build());
    await(d);
    awaitFile(args);
    assertEquals(String.format("%016x", d.id()) + "|1|" + file + "|complete", Files.readString(args).strip());

    server.respond("/gone.bin", 404);
    Download gone = braid.submit(request("/gone.bin", dir.resolve("gone.bin")).build());
    assertTrue(failsWith(gone, HttpStatusException.class));
    awaitFile(errArgs);
    String line = Files.readString(errArgs).strip();
    assertTrue(line.startsWith(String.format("%016x", gone.id()) + "|error|"), line);
    assertTrue(line.contains("404"), line);
    assertTrue(failures.isEmpty(), failures.toString());
  }

  @Test
  void aFailingHookIsReportedAndTheDownloadStillCompletes() throws Exception {
    withHooks(Duration.ofSeconds(10), List.of(DownloadHook.command(script("bad.sh", "exit 3").toString())), List.of());
    Content c = Content.random(64 * 1024, 8);
    server.serve("/f.bin", c);
    Download d = braid.submit(request("/f.bin", dir.resolve("f.bin")).build());
    DownloadResult r = await(d);
    HookFailure f = failures.poll(20, TimeUnit.SECONDS);
    assertTrue(f != null, "no failure reported");
    assertEquals(d.id(), f.event().id());
    assertTrue(f.reason().contains("exited with 3"), f.reason());
    assertEquals(c.sha256Hex(), sha256(r.file()));
    assertEquals(DownloadState.COMPLETED, d.state());
  }

  @Test
  void aHungHookIsKilledWithItsChildrenAtTheBoundAndTheNextOneRuns() throws Exception {
    Path pidFile = dir.resolve("child.pid");
    Path after = dir.resolve("after.txt");
    // the hook's own child (sleep) must die too: its pid is written before it waits
    Path hang = script("hang.sh", "sleep 300 & echo $! > " + pidFile + "; wait");
    Path next = script("next.sh", "echo ran > " + after);
    withHooks(Duration.ofSeconds(1), List.of(DownloadHook.command(hang.toString()), DownloadHook.command(next.toString())),
        List.of());
    server.serve("/a.bin", Content.random(32 * 1024, 9));
    server.serve("/b.bin", Content.random(32 * 1024, 10));
    Download a = braid.submit(request("/a.bin", dir.resolve("a.bin")).build());
    await(a);
    // the engine goes on while the hook hangs: a second download completes meanwhile
    await(braid.submit(request("/b.bin", dir.resolve("b.bin")).build()));
    HookFailure f = failures.poll(20, TimeUnit.SECONDS);
    assertTrue(f != null && f.reason().contains("killed"), String.valueOf(f));
    awaitFile(after);
    awaitFile(pidFile);
    long child = Long.parseLong(Files.readString(pidFile).strip());
    WAIT.alias("the hook's child still runs").until(() -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true));
  }

  @Test
  void aWebhookPostsTheEventAndAnUnreachableOneIsReported() throws Exception {
    BlockingQueue<String> bodies = new LinkedBlockingQueue<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext("/hook", ex -> {
      bodies.add(ex.getRequestMethod() + " " + ex.getRequestHeaders().getFirst("Content-Type") + " "
          + new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      ex.sendResponseHeaders(204, -1);
      ex.close();
    });
    receiver.start();
    try {
      URI hook = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
      // a port nobody listens on: bound a moment ago, closed again
      java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      URI nowhere = URI.create("http://127.0.0.1:" + s.getLocalPort() + "/hook");
      s.close();
      java.util.function.Function<HookEvent, String> body = e -> "{\"gid\":\"" + e.gid() + "\",\"path\":\"" + e.path() + "\"}";
      withHooks(Duration.ofSeconds(5), List.of(DownloadHook.webhook(hook, body), DownloadHook.webhook(nowhere, body)),
          List.of());
      server.serve("/f.bin", Content.random(32 * 1024, 11));
      Path file = dir.resolve("f.bin");
      Download d = braid.submit(request("/f.bin", file).build());
      await(d);
      String got = bodies.poll(20, TimeUnit.SECONDS);
      assertEquals("POST application/json {\"gid\":\"" + String.format("%016x", d.id()) + "\",\"path\":\"" + file + "\"}", got);
      HookFailure f = failures.poll(20, TimeUnit.SECONDS);
      assertTrue(f != null && f.hook().equals(nowhere.toString()), String.valueOf(f));
    } finally {
      receiver.stop(0);
    }
  }

  @Test
  void aPausedDownloadCallsNoHook() throws Exception {
    Path args = dir.resolve("args.txt");
    Path hook = script("any.sh", "echo \"$1\" >> " + args);
    withHooks(Duration.ofSeconds(5), List.of(DownloadHook.command(hook.toString())),
        List.of(DownloadHook.command(hook.toString())));
    server.serve("/slow.bin", Content.random(4 << 20, 12)).rateLimitPerConnection(256 * 1024);
    Download d = braid.submit(request("/slow.bin", dir.resolve("slow.bin")).connections(1).build());
    awaitProgress(d, 64 * 1024);
    d.pause();
    assertTrue(failsWith(d, DownloadPausedException.class));
    braid.close();
    braid = newBraid();
    assertFalse(Files.exists(args), "a hook ran for a pause");
  }

  private static boolean failsWith(Download d, Class<? extends Throwable> kind) {
    try {
      d.result().join();
      return false;
    } catch (CompletionException e) {
      return kind.isInstance(e.getCause());
    }
  }

  private static void awaitFile(Path f) {
    // a file being written may vanish between the two looks: Awaitility calls that not yet
    WAIT.alias("no " + f).ignoreException(IOException.class)
        .until(() -> Files.exists(f) && Files.size(f) > 0);
  }

}
