package dev.braid.cli;

import dev.braid.core.DownloadRequest;
import dev.braid.core.Gid;
import dev.braid.core.OutageRetry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code braid get} with a daemon on the state database: the downloads are added to the daemon
 * ({@code aria2.addUri}) and followed there ({@link RemoteFollow}), printing what an in-process
 * get prints; the notifications are heard on a connection opened before the first add. Ctrl-C pauses this
 * command's downloads in the daemon. Options the RPC does not carry (--no-restart,
 * --min-split-size, --max-connections, -j) are the daemon's; --proxy goes as each download's
 * all-proxy.
 *
 * <p>Threads: the calling thread adds, waits and prints; the socket's thread only queues what
 * it hears; the shutdown hook (Ctrl-C) sends the pauses and waits for their answers.
 */
final class RemoteGet {
  private static final Duration PAUSE_WAIT = Duration.ofSeconds(10);

  private final DaemonLink.Endpoint endpoint;
  private final Caller caller;
  private final PrintStream err;
  private final boolean quiet;
  private final boolean json;
  private final Duration progressInterval;
  private final String outageHint;
  private final BlockingQueue<RpcClient.Notification> heard = new LinkedBlockingQueue<>();
  private final Set<String> open = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final Map<String, String> urls = new HashMap<>();
  /** The adds sent: a Ctrl-C pauses those answered after it, too. */
  private final List<CompletableFuture<RpcValue>> adding = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** {@code outageHint}: what a download failed by an outage adds to its error line ({@link OutageHint}). */
  RemoteGet(DaemonLink.Endpoint endpoint, Caller caller, boolean quiet, boolean json, Duration progressInterval,
      String outageHint) {
    this.endpoint = endpoint;
    this.caller = caller;
    this.err = caller.err();
    this.quiet = quiet;
    this.json = json;
    this.progressInterval = progressInterval;
    this.outageHint = outageHint;
  }

  /** Adds the downloads and, unless {@code detach}, follows them to their ends; the exit code. */
  int run(List<DownloadRequest> requests, boolean single, boolean detach) throws InterruptedException {
    try (RpcClient rpc = RpcClient.connect(caller, endpoint, heard::add)) {
      List<String> gids;
      // from the first add on: a Ctrl-C while the adds are answered pauses what was added
      Caller.Registration hook = detach ? null : onExit(rpc);
      try {
        gids = add(rpc, requests);
      } catch (RpcClient.RpcError e) {
        err.println("braid: the daemon refused the download: " + e.getMessage());
        return e.code == 1 && "Unauthorized".equals(e.getMessage()) ? ExitCode.LOCAL_IO : ExitCode.USAGE;
      } finally {
        if (hook != null) {
          hook.remove();
        }
      }
      if (detach) {
        for (int i = 0; i < gids.size(); i++) {
          caller.out().println(Long.parseUnsignedLong(gids.get(i), 16) + " " + gids.get(i) + " " + requests.get(i).uri());
        }
        return ExitCode.OK;
      }
      return followPausingOnExit(rpc, gids, single);
    } catch (IOException | RpcClient.RpcError e) {
      err.println("braid: " + e.getMessage());
      return ExitCode.LOCAL_IO;
    }
  }

  /** {@code braid resume ID}: continues download {@code id} in the daemon and follows it there. */
  int resume(long id) throws InterruptedException {
    String gid = Gid.of(id);
    try (RpcClient rpc = RpcClient.connect(caller, endpoint, heard::add)) {
      Optional<RpcValue> e = StoreCommand.entry(rpc, id, err);
      if (e.isEmpty()) {
        return ExitCode.USAGE;
      }
      String state = e.get().path("state").asText();
      if (state.equals("completed")) {
        err.println("braid: download #" + id + " is already complete: " + e.get().path("file").asText(""));
        return ExitCode.OK;
      }
      if (state.equals("paused") || state.equals("failed")) {
        rpc.call("braid.resume", gid);
      }
      open.add(gid);
      urls.put(gid, e.get().path("url").asText());
      return followPausingOnExit(rpc, List.of(gid), true);
    } catch (IOException | RpcClient.RpcError e) {
      err.println("braid: " + e.getMessage());
      return ExitCode.LOCAL_IO;
    }
  }

  private int followPausingOnExit(RpcClient rpc, List<String> gids, boolean single) throws IOException,
      RpcClient.RpcError, InterruptedException {
    Caller.Registration hook = onExit(rpc);
    try {
      return new RemoteFollow(rpc, heard, open, urls, caller, quiet, json, progressInterval, outageHint).follow(gids, single);
    } catch (IOException lost) {
      // a daemon that stops records its downloads' progress: they are not lost, and the user must hear so
      int n = open.size();
      throw new IOException("lost the braid daemon before " + (n == 1 ? "this get's download" : n + " of this get's downloads")
          + " ended (" + lost.getMessage() + "); " + (n == 1 ? "it stays in its queue, its progress recorded, and continues"
          : "they stay in its queue, their progress recorded, and continue") + " when a daemon runs again or this get runs again",
          lost);
    } finally {
      hook.remove();
    }
  }

  private Caller.Registration onExit(RpcClient rpc) {
    return caller.onInterrupt(() -> pauseOpen(rpc));
  }

  /** Adds every request, many to a message and the messages pipelined; the gids in request order. */
  private List<String> add(RpcClient rpc, List<DownloadRequest> requests) throws RpcClient.RpcError, IOException,
      InterruptedException {
    List<List<Object>> params = new ArrayList<>();
    for (DownloadRequest r : requests) {
      params.add(List.of(uris(r), options(r, caller)));
    }
    List<CompletableFuture<RpcValue>> sent = rpc.sendEach("aria2.addUri", params);
    adding.addAll(sent);
    List<String> gids = new ArrayList<>();
    for (int i = 0; i < sent.size(); i++) {
      try {
        String gid = sent.get(i).get(30, TimeUnit.SECONDS).asText();
        gids.add(gid);
        open.add(gid);
        urls.put(gid, requests.get(i).uri().toString());
        if (json) {
          RemoteFollow.emit(caller.out(), RemoteFollow.event("queued", gid, rpc.call("braid.tellEntry", gid)));
        }
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof RpcClient.RpcError r) {
          throw r;
        }
        throw new IOException("the braid daemon's connection failed: " + e.getCause().getMessage(), e.getCause());
      } catch (java.util.concurrent.TimeoutException e) {
        throw new IOException("the braid daemon did not answer aria2.addUri within 30 s");
      }
    }
    return gids;
  }

  /** aria2's URIs of a request: its URL, then its mirrors. */
  static List<String> uris(DownloadRequest r) {
    List<String> out = new ArrayList<>();
    out.add(r.uri().toString());
    r.mirrors().forEach(m -> out.add(m.toString()));
    return out;
  }

  /**
   * The folder a request writes to, absolute: its file's, else its own, else the caller's working
   * directory (a request made in a daemon's relay would otherwise say the daemon's).
   */
  static Path folder(DownloadRequest r, Caller caller) {
    Optional<Path> file = r.file();
    if (file.isPresent()) {
      return file.get().getParent();
    }
    return r.directoryGiven() ? r.directory() : caller.resolve(Path.of("")).toAbsolutePath();
  }

  /** aria2's options of a request; folders absolute, as the daemon runs elsewhere. */
  static Map<String, Object> options(DownloadRequest r, Caller caller) {
    Map<String, Object> o = new java.util.LinkedHashMap<>();
    o.put("dir", folder(r, caller).normalize().toString());
    r.file().ifPresent(f -> o.put("out", f.getFileName().toString()));
    r.checksum().ifPresent(c -> o.put("checksum", c.toString()));
    // --overwrite: without it the daemon answers a file already there as before (kept, or refused)
    if (r.overwrite()) {
      o.put("allow-overwrite", "true");
    }
    // the download's own proxy (get's --proxy): the daemon's stays for the others
    r.proxy().ifPresent(p -> o.put("all-proxy", p));
    r.connections().ifPresent(n -> o.put("split", Integer.toString(n)));
    if (r.rateLimit() > 0) {
      o.put("max-download-limit", Long.toString(r.rateLimit()));
    }
    // get's --retry-for: how long the daemon waits out an outage for this download; one try for
    // a get in the foreground without it, as without a daemon
    r.outageRetry().ifPresent(p -> {
      if (!p.retries()) {
        o.put("max-tries", "1");
      } else {
        p.retryFor().ifPresent(d -> o.put("braid-retry-for", Double.toString(d.toMillis() / 1000.0)));
      }
    });
    // a Metalink's piece hashes and size: Braid's own options, beside aria2's
    r.pieceHashes().ifPresent(p -> o.put("braid-pieces", p.text()));
    if (r.expectedLength() >= 0) {
      o.put("braid-length", Long.toString(r.expectedLength()));
    }
    if (!r.headers().isEmpty()) {
      List<String> h = new ArrayList<>();
      r.headers().forEach((name, value) -> h.add(name + ": " + value));
      o.put("header", h);
    }
    return o;
  }

  /** Ctrl-C: pause this command's downloads in the daemon and wait for its answers (bounded). */
  private void pauseOpen(RpcClient rpc) {
    Set<String> toPause = new LinkedHashSet<>(open);
    for (CompletableFuture<RpcValue> f : adding) {
      try {
        toPause.add(f.get(PAUSE_WAIT.toMillis(), TimeUnit.MILLISECONDS).asText());
      } catch (Exception refused) {
        // not added: nothing to pause
      }
    }
    List<CompletableFuture<RpcValue>> asked = new ArrayList<>();
    for (String gid : toPause) {
      asked.add(rpc.send("aria2.forcePause", gid));
    }
    for (CompletableFuture<RpcValue> f : asked) {
      try {
        f.get(PAUSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (Exception ended) {
        // already ended, or the daemon went away: nothing left to pause
      }
    }
    if (!quiet && !json) {
      err.println();
      err.println("braid: interrupted; the daemon keeps the downloads paused, run the same command to resume");
    }
  }
}
