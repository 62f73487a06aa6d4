package dev.braid.gui;

import dev.braid.core.BraidBuilder;
import dev.braid.core.DownloadHook;
import dev.braid.core.HookFailure;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import dev.braid.rpc.WebhookBody;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The settings dialog's schedule and hooks, as text the way the command line takes it. The schedule
 * is the queue's own ({@link RunWindow#SETTING}, {@link SpeedSchedule#SETTING}): a {@code braid
 * daemon} on the same state database runs by it too; the hooks are the app's.
 *
 * @param runWindows windows in which the queue runs, comma-separated; blank for always
 * @param speedSchedule limits by time of day; blank for none
 * @param onComplete a command run when a download completes; blank for none
 * @param onError a command run when a download fails; blank for none
 * @param webhook a URL the events are POSTed to; blank for none
 */
record AutomationSettings(String runWindows, String speedSchedule, String onComplete, String onError, String webhook) {
  static final String ON_COMPLETE = "gui.onDownloadComplete";
  static final String ON_ERROR = "gui.onDownloadError";
  static final String WEBHOOK = "gui.webhook";
  static final AutomationSettings NONE = new AutomationSettings("", "", "", "", "");

  /** Strips the texts; a schedule or URL that does not parse throws {@link IllegalArgumentException} with the reason. */
  AutomationSettings {
    runWindows = RunWindow.toText(RunWindow.parseList(runWindows.strip()));
    speedSchedule = SpeedSchedule.parse(speedSchedule.strip()).toString();
    onComplete = onComplete.strip();
    onError = onError.strip();
    webhook = webhook.strip();
    if (!webhook.isEmpty()) {
      DownloadHook.webhook(uri(webhook), WebhookBody::of);
    }
  }

  /** Reads stored values; one that no longer parses is left out rather than failing the start. */
  static AutomationSettings from(Map<String, String> stored) {
    String windows = stored.getOrDefault(RunWindow.SETTING, "");
    String speeds = stored.getOrDefault(SpeedSchedule.SETTING, "");
    String hook = stored.getOrDefault(WEBHOOK, "");
    try {
      RunWindow.parseList(windows);
    } catch (IllegalArgumentException e) {
      windows = "";
    }
    try {
      SpeedSchedule.parse(speeds);
    } catch (IllegalArgumentException e) {
      speeds = "";
    }
    try {
      if (!hook.isBlank()) {
        uri(hook.strip());
      }
    } catch (IllegalArgumentException e) {
      hook = "";
    }
    return new AutomationSettings(windows, speeds, stored.getOrDefault(ON_COMPLETE, ""), stored.getOrDefault(ON_ERROR, ""),
        hook);
  }

  Map<String, String> toMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(RunWindow.SETTING, runWindows);
    m.put(SpeedSchedule.SETTING, speedSchedule);
    m.put(ON_COMPLETE, onComplete);
    m.put(ON_ERROR, onError);
    m.put(WEBHOOK, webhook);
    return m;
  }

  /** The hooks on {@code b} (the schedule the Braid reads from the store); failures go to {@code failures}. */
  void hooksOn(BraidBuilder b, Consumer<HookFailure> failures) {
    if (!onComplete.isEmpty()) {
      b.onDownloadComplete(DownloadHook.command(onComplete));
    }
    if (!onError.isEmpty()) {
      b.onDownloadError(DownloadHook.command(onError));
    }
    if (!webhook.isEmpty()) {
      DownloadHook post = DownloadHook.webhook(uri(webhook), WebhookBody::of);
      b.onDownloadComplete(post).onDownloadError(post);
    }
    b.hookFailures(failures);
  }

  private static URI uri(String text) {
    try {
      URI u = new URI(text);
      DownloadHook.webhook(u, WebhookBody::of);
      return u;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("Not a URL: " + text);
    }
  }
}
