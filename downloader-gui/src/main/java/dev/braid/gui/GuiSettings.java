package dev.braid.gui;

import dev.braid.client.GlobalOptions;
import dev.braid.core.RunWindow;
import dev.braid.rpc.RpcSettings;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings a person changes in the settings dialog, stored as text in Braid's store (so the
 * CLI and a second window see the same values). The queue-wide ones (speed limit, downloads at
 * once, the schedule) are also the engine's {@link GlobalOptions}, changed through the client port.
 *
 * @param folder where new downloads go
 * @param maxActive downloads running at once
 * @param connectionsPerDownload the cap of one download's adaptive connection count
 * @param connectionsTotal the cap across all downloads (applies from the next start)
 * @param speedLimit bytes per second over all downloads, 0 for unlimited
 * @param theme light or dark
 * @param rpc whether the open app serves aria2's JSON-RPC on loopback for browser extensions (from the next start)
 * @param rpcPort that RPC's port, also where the app looks for a running {@code braid daemon} to attach to
 * @param clipboard whether a copied link offers itself for download (opt-in: off by default)
 * @param automation the queue's schedule and the app's hooks
 */
record GuiSettings(Path folder, int maxActive, int connectionsPerDownload, int connectionsTotal, long speedLimit, Theme theme,
    boolean rpc, int rpcPort, boolean clipboard, AutomationSettings automation) {
  static final String FOLDER = "gui.folder";
  static final String MAX_ACTIVE = "gui.maxActiveDownloads";
  static final String PER_DOWNLOAD = "gui.connectionsPerDownload";
  static final String TOTAL = "gui.connectionsTotal";
  static final String SPEED_LIMIT = "gui.speedLimit";
  static final String THEME = "gui.theme";
  static final String RPC = "gui.rpc";
  static final String RPC_PORT = "gui.rpcPort";
  static final String CLIPBOARD = "gui.clipboardCapture";

  GuiSettings {
    if (maxActive < 1 || connectionsPerDownload < 1 || connectionsTotal < 1 || speedLimit < 0 || rpcPort < 1 || rpcPort > 65535) {
      throw new IllegalArgumentException("settings out of range");
    }
    java.util.Objects.requireNonNull(automation, "automation");
  }

  static GuiSettings defaults() {
    return new GuiSettings(Path.of(System.getProperty("user.home"), "Downloads"), 3, 16, 64, 0, Theme.LIGHT, true,
        RpcSettings.DEFAULT_PORT, false, AutomationSettings.NONE);
  }

  /** Reads stored values; a missing or unreadable one keeps its default rather than failing the start. */
  static GuiSettings from(Map<String, String> stored) {
    GuiSettings d = defaults();
    String folder = stored.get(FOLDER);
    return new GuiSettings(
        folder == null || folder.isBlank() ? d.folder : Path.of(folder),
        positive(stored.get(MAX_ACTIVE), d.maxActive),
        positive(stored.get(PER_DOWNLOAD), d.connectionsPerDownload),
        positive(stored.get(TOTAL), d.connectionsTotal),
        rate(stored.get(SPEED_LIMIT), d.speedLimit),
        stored.containsKey(THEME) ? Theme.parse(stored.get(THEME)) : d.theme,
        stored.containsKey(RPC) ? !"false".equalsIgnoreCase(stored.get(RPC).strip()) : d.rpc,
        port(stored.get(RPC_PORT), d.rpcPort),
        stored.containsKey(CLIPBOARD) ? "true".equalsIgnoreCase(stored.get(CLIPBOARD).strip()) : d.clipboard,
        AutomationSettings.from(stored));
  }

  Map<String, String> toMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(FOLDER, folder.toString());
    m.put(MAX_ACTIVE, Integer.toString(maxActive));
    m.put(PER_DOWNLOAD, Integer.toString(connectionsPerDownload));
    m.put(TOTAL, Integer.toString(connectionsTotal));
    m.put(SPEED_LIMIT, Long.toString(speedLimit));
    m.put(THEME, theme.name().toLowerCase(java.util.Locale.ROOT));
    m.put(RPC, Boolean.toString(rpc));
    m.put(RPC_PORT, Integer.toString(rpcPort));
    m.put(CLIPBOARD, Boolean.toString(clipboard));
    m.putAll(automation.toMap());
    return m;
  }

  GuiSettings withSpeedLimit(long bps) {
    return new GuiSettings(folder, maxActive, connectionsPerDownload, connectionsTotal, bps, theme, rpc, rpcPort, clipboard,
        automation);
  }

  /**
   * These settings with the queue-wide values the engine runs by (a daemon's may differ from what
   * this app stored): downloads at once, run windows and speed schedule. Not the speed limit: the
   * engine tells the one in force, the speed schedule's while one of its entries applies, and the
   * window keeps the limit the person set.
   */
  GuiSettings withQueue(GlobalOptions q) {
    AutomationSettings a = new AutomationSettings(RunWindow.toText(q.runWindows()), q.speedSchedule().toString(),
        automation.onComplete(), automation.onError(), automation.webhook());
    return new GuiSettings(folder, q.maxActiveDownloads(), connectionsPerDownload, connectionsTotal, speedLimit, theme, rpc,
        rpcPort, clipboard, a);
  }

  GuiSettings withTheme(Theme t) {
    return new GuiSettings(folder, maxActive, connectionsPerDownload, connectionsTotal, speedLimit, t, rpc, rpcPort, clipboard,
        automation);
  }

  private static int positive(String s, int fallback) {
    try {
      int v = Integer.parseInt(s == null ? "" : s.strip());
      return v > 0 ? v : fallback;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  private static int port(String s, int fallback) {
    int v = positive(s, fallback);
    return v <= 65535 ? v : fallback;
  }

  private static long rate(String s, long fallback) {
    try {
      long v = Long.parseLong(s == null ? "" : s.strip());
      return v >= 0 ? v : fallback;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
