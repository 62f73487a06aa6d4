package dev.braid.cli;

import static dev.braid.cli.CommandModel.option;
import static dev.braid.cli.CommandModel.repeatable;
import static dev.braid.cli.CommandModel.set;
import static dev.braid.cli.CommandModel.strings;

import dev.braid.core.BraidBuilder;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --run-window} and {@code --speed-schedule} of the commands that run the queue ({@code braid
 * daemon}); without them the queue's stored schedule applies (set by the desktop app or over the RPC).
 */
final class ScheduleOptions {
  private final OptionSpec windows = repeatable("WINDOW", "run the queue only in WINDOW, [DAYS ]HH:MM-HH:MM, e.g."
      + " 'Mon-Fri 01:00-07:00' or 'Sat+Sun 00:00-24:00' (repeatable); outside every window running downloads wait queued"
      + " with their progress and none starts (default: the queue's stored windows, else always)", "--run-window").build();

  private final OptionSpec speeds = option(String.class, "SCHEDULE", "limits by time of day for all downloads together,"
      + " WINDOW=RATE,... e.g. '09:00-18:00=2M,18:00-09:00=0' (0: none; first match wins; elsewhere --limit-rate)"
      + " (default: the queue's stored schedule)", "--speed-schedule").build();

  void addTo(CommandSpec spec) {
    spec.addOption(windows);
    spec.addOption(speeds);
  }

  /** Gives the schedule to {@code b}; what the command line leaves out comes from the state database. */
  void applyTo(BraidBuilder b) throws InvalidRequestException {
    b.storedSchedule(true);
    List<String> given = strings(windows);
    if (!given.isEmpty()) {
      List<RunWindow> parsed = new ArrayList<>();
      for (String w : given) {
        set(windows, () -> parsed.add(RunWindow.parse(w)));
      }
      b.runWindows(parsed);
    }
    String s = speeds.getValue();
    if (s != null) {
      set(speeds, () -> b.speedSchedule(SpeedSchedule.parse(s)));
    }
  }
}
