package dev.braid.client.remote;

import dev.braid.client.GlobalOptions;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link GlobalOptions} as {@code braid.globalOptions} answers them and
 * {@code braid.changeGlobalOptions} takes them: {@code speedLimit, maxActiveDownloads},
 * {@code runWindows} and {@code speedSchedule} in their text forms, {@code outageRetry}.
 */
public final class GlobalOptionsForm {
  private GlobalOptionsForm() {}

  /**
   * {@return {@code o} on the wire}
   *
   * @param o the options
   */
  public static Map<String, Object> of(GlobalOptions o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("speedLimit", o.speedLimit());
    m.put("maxActiveDownloads", o.maxActiveDownloads());
    m.put("runWindows", RunWindow.toText(o.runWindows()));
    m.put("speedSchedule", o.speedSchedule().toString());
    m.put("outageRetry", RetryForm.of(o.outageRetry()));
    return m;
  }

  /**
   * {@return the options {@code m} describes}
   *
   * @param m the options on the wire, as maps, lists, strings and numbers
   * @throws IllegalArgumentException for a value the options cannot take
   */
  public static GlobalOptions read(Map<String, ?> m) {
    return read(RpcValue.of(m));
  }

  static GlobalOptions read(RpcValue m) {
    return new GlobalOptions(m.path("speedLimit").asLong(), m.path("maxActiveDownloads").asInt(),
        RunWindow.parseList(m.path("runWindows").asText()), SpeedSchedule.parse(m.path("speedSchedule").asText()),
        RetryForm.read(m.path("outageRetry")));
  }
}
