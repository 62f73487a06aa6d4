package dev.braid.client;

import dev.braid.core.OutageRetry;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import java.util.List;

/**
 * The queue-wide options a face reads and changes: {@link BraidClient#globalOptions()} gives them,
 * a face changes what it means to (the {@code with} methods) and hands them to
 * {@link BraidClient#changeGlobalOptions}.
 *
 * @param speedLimit the global speed limit in bytes per second, 0 for none
 * @param maxActiveDownloads how many downloads run at once (at least 1)
 * @param runWindows when the queue may start downloads, empty for always
 * @param speedSchedule speed limits by time of day
 * @param outageRetry how long a download that loses its server waits before it fails
 */
public record GlobalOptions(long speedLimit, int maxActiveDownloads, List<RunWindow> runWindows,
    SpeedSchedule speedSchedule, OutageRetry outageRetry) {
  /**
   * Checks the values and copies the windows.
   *
   * @param speedLimit bytes per second, 0 for none
   * @param maxActiveDownloads at least 1
   * @param runWindows when downloads may start
   * @param speedSchedule speed limits by time of day
   * @param outageRetry the outage policy
   */
  public GlobalOptions {
    if (speedLimit < 0 || maxActiveDownloads < 1 || speedSchedule == null || outageRetry == null) {
      throw new IllegalArgumentException("global options need a speed limit >= 0, at least one active download,"
          + " a speed schedule and an outage policy");
    }
    runWindows = List.copyOf(runWindows);
  }

  /**
   * {@return these options with another speed limit}
   *
   * @param bytesPerSecond the limit, 0 for none
   */
  public GlobalOptions withSpeedLimit(long bytesPerSecond) {
    return new GlobalOptions(bytesPerSecond, maxActiveDownloads, runWindows, speedSchedule, outageRetry);
  }

  /**
   * {@return these options with another count of downloads at once}
   *
   * @param n at least 1
   */
  public GlobalOptions withMaxActiveDownloads(int n) {
    return new GlobalOptions(speedLimit, n, runWindows, speedSchedule, outageRetry);
  }
}
