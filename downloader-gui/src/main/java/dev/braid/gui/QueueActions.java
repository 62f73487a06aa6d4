package dev.braid.gui;

import java.util.List;

/**
 * What the window asks of the download engine. Every method returns at once: the work happens on
 * a background thread, and results come back as snapshots through the coalescer (failures as
 * notifications). So no click ever waits on the disk, the store or the network.
 */
interface QueueActions {
  void add(AddRequest request);

  void pause(List<Long> ids);

  /** Resumes paused downloads and retries failed ones. */
  void resume(List<Long> ids);

  void cancel(List<Long> ids);

  void remove(List<Long> ids, boolean deleteFiles);

  /**
   * Gives a download a new link for the same file (an expired signed link's replacement) and
   * resumes it if it was paused or failed: its bytes are kept only when the new link proves to
   * serve the same file, otherwise the download fails and nothing is spliced.
   */
  void changeLink(long id, String url);

  /** The global speed limit in bytes per second, 0 for none; applied live and remembered. */
  void speedLimit(long bytesPerSecond);

  /** Stores the settings and applies those that can change while running. */
  void saveSettings(GuiSettings settings);

  /** The settings as last loaded or saved (kept in memory: reading them does no I/O). */
  GuiSettings settings();
}
