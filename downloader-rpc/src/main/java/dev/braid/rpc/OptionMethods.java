package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.braid.core.Braid;
import dev.braid.core.Download;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.OutageRetry;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import dev.braid.core.rules.Rules;
import dev.braid.store.DownloadState;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * getOption/changeOption of one download and getGlobalOption/changeGlobalOption of the engine.
 * A download's all-proxy changes while it is not active ({@link ProxyOption}); its next run uses it.
 * Its header, referer and user-agent ({@link HeaderOptions}) replace all its request headers, in
 * any state but complete: the state database keeps them for every later run, and an active one
 * restarts its connections with them. getOption never shows them (aria2's does): they are a
 * browser's cookies and credentials, and any client with the secret, or a web UI, reads options.
 *
 * <p>A download's and the engine's max-tries, retry-wait and braid-retry-for ({@link RetryOption}): a
 * download waiting now keeps its next try, its next failure follows the new policy.
 * Live: a download's max-download-limit, the engine's max-overall-download-limit and
 * max-concurrent-downloads, and Braid's own braid-run-window (windows, comma-separated, in which
 * the queue runs; empty for always) and braid-speed-schedule (limits by time of day); these two are
 * also stored in the state database as the queue's schedule, which the desktop app and the next
 * daemon start read. Any other option to change is refused by name.
 */
final class OptionMethods {
  private static final TextNode OK = TextNode.valueOf("OK");
  /** Braid's own global options, named as aria2 names its options. */
  static final String RUN_WINDOW = "braid-run-window";
  static final String SPEED_SCHEDULE = "braid-speed-schedule";
  private final Braid braid;
  private final QueueView queue;
  private final FolderPolicy folders;
  private final Rules rules;
  private final int port;

  OptionMethods(Braid braid, QueueView queue, FolderPolicy folders, Rules rules, int port) {
    this.braid = braid;
    this.queue = queue;
    this.folders = folders;
    this.rules = rules;
    this.port = port;
  }

  void addTo(Dispatcher d) {
    d.add("aria2.getOption", p -> option(queue.find(p.gid(0))));
    d.add("aria2.changeOption", p -> changeOption(queue.find(p.gid(0)), p.object(1)));
    d.add("aria2.getGlobalOption", p -> globalOption());
    d.add("aria2.changeGlobalOption", p -> changeGlobal(p.object(0)));
  }

  private JsonNode option(Download d) {
    ObjectNode o = NODES.objectNode();
    o.put("dir", d.directory().toString());
    d.file().ifPresent(f -> o.put("out", f.getFileName().toString()));
    d.checksum().ifPresent(c -> o.put("checksum", c.toString()));
    ProxyOption.shownIn(o, d);
    RetryOption.shownIn(o, d.outageRetry().orElse(braid.outageRetry()));
    return o;
  }

  private JsonNode changeOption(Download d, ObjectNode options) throws RpcException {
    for (Iterator<Map.Entry<String, JsonNode>> it = options.fields(); it.hasNext(); ) {
      String key = it.next().getKey();
      if (!key.equals("max-download-limit") && !ProxyOption.isOne(key) && !HeaderOptions.KEYS.contains(key)
          && !RetryOption.KEYS.contains(key)) {
        throw RpcException.failed("option " + key + " cannot be changed here (max-download-limit, header, referer,"
            + " user-agent, max-tries, retry-wait, " + RetryOption.RETRY_FOR + ", and " + ProxyOption.ALL_PROXY
            + " of a download that is not active)");
      }
    }
    // all checked before any is applied
    long limit = options.has("max-download-limit")
        ? Sizes.parse("max-download-limit", AddOptions.text(options, "max-download-limit")) : -1;
    Map<String, String> headers = null;
    if (HeaderOptions.given(options)) {
      if (d.state() == DownloadState.COMPLETED) {
        throw RpcException.failed("the download is complete: it sends no more requests");
      }
      headers = HeaderOptions.of(d.url(), options, rules);
    }
    OutageRetry retry = RetryOption.given(options)
        ? RetryOption.apply(d.outageRetry().orElse(braid.outageRetry()), options) : null;
    if (ProxyOption.given(options)) {
      try {
        d.proxy(ProxyOption.setting(options));
      } catch (IllegalStateException running) {
        throw RpcException.failed(ProxyOption.ALL_PROXY + ": " + running.getMessage());
      }
    }
    if (headers != null) {
      try {
        d.headers(headers);
      } catch (InvalidRequestException | IllegalStateException e) {
        throw RpcException.failed(e.getMessage());
      }
    }
    if (limit >= 0) {
      d.rateLimit(limit);
    }
    if (retry != null) {
      d.outageRetry(retry);
    }
    return OK;
  }

  private JsonNode globalOption() {
    ObjectNode o = NODES.objectNode();
    RetryOption.shownIn(o, braid.outageRetry());
    return o
        .put("dir", folders.downloadFolder().toString())
        .put("max-concurrent-downloads", Integer.toString(braid.maxActiveDownloads()))
        .put("max-overall-download-limit", Long.toString(braid.rateLimit()))
        .put("max-download-limit", "0")
        .put(RUN_WINDOW, RunWindow.toText(braid.runWindows()))
        .put(SPEED_SCHEDULE, braid.speedSchedule().toString())
        .put("rpc-listen-port", Integer.toString(port))
        .put("enable-rpc", "true");
  }

  private JsonNode changeGlobal(ObjectNode options) throws RpcException {
    long limit = -1;
    int downloads = -1;
    List<RunWindow> windows = null;
    SpeedSchedule speeds = null;
    OutageRetry retry = RetryOption.given(options) ? RetryOption.apply(braid.outageRetry(), options) : null;
    for (Iterator<Map.Entry<String, JsonNode>> it = options.fields(); it.hasNext(); ) {
      String key = it.next().getKey();
      if (RetryOption.KEYS.contains(key)) {
        continue;
      }
      switch (key) {
        case "max-overall-download-limit" -> limit = Sizes.parse(key, AddOptions.text(options, key));
        case "max-concurrent-downloads" -> downloads = concurrent(AddOptions.text(options, key));
        case RUN_WINDOW -> windows = schedule(key, AddOptions.text(options, key), RunWindow::parseList);
        case SPEED_SCHEDULE -> speeds = schedule(key, AddOptions.text(options, key), SpeedSchedule::parse);
        default -> throw RpcException.failed("option " + key + " cannot be changed here (max-overall-download-limit,"
            + " max-concurrent-downloads, max-tries, retry-wait, " + RetryOption.RETRY_FOR + ", " + RUN_WINDOW + ", "
            + SPEED_SCHEDULE + ")");
      }
    }
    // both checked before either is applied
    if (limit >= 0) {
      braid.rateLimit(limit);
    }
    if (downloads > 0) {
      braid.maxActiveDownloads(downloads);
    }
    if (retry != null) {
      braid.outageRetry(retry);
    }
    if (windows != null) {
      braid.runWindows(windows);
      braid.saveSetting(RunWindow.SETTING, RunWindow.toText(windows));
    }
    if (speeds != null) {
      braid.speedSchedule(speeds);
      braid.saveSetting(SpeedSchedule.SETTING, speeds.toString());
    }
    return OK;
  }

  /** A schedule's text read, or the call refused with the reason. */
  private static <T> T schedule(String key, String text, Function<String, T> parse) throws RpcException {
    try {
      return parse.apply(text);
    } catch (IllegalArgumentException e) {
      throw RpcException.failed("option " + key + ": " + e.getMessage());
    }
  }

  private static int concurrent(String value) throws RpcException {
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw RpcException.failed("max-concurrent-downloads must be a whole number of 1 or more, not '" + value + "'");
  }
}
