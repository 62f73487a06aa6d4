package dev.braid.gui;

import dev.braid.core.Braid;
import dev.braid.core.BraidBuilder;
import dev.braid.core.HookFailure;
import dev.braid.core.LocalFileException;
import dev.braid.core.OutageRetry;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Builds the app's own {@link Braid} when no daemon runs the queue: the stored settings that are
 * fixed once an engine is built (downloads at once, the connection budget, the hooks), the rules
 * file's proxies and per-host caps, and the queue's stored schedule.
 */
final class OwnEngine {
  private OwnEngine() {}

  /**
   * A Braid that runs the queue of {@code stateLocation}. Blocking: call it off the FX thread.
   *
   * @param settings the app's settings as stored
   * @param tune adjusts the builder after the settings are applied (tests shorten timeouts; the metrics port)
   * @param hookFailures told when a hook does not succeed, on the engine's thread
   */
  static Braid build(String stateLocation, GuiSettings settings, AppRules rules, UnaryOperator<BraidBuilder> tune,
      Consumer<HookFailure> hookFailures) throws LocalFileException {
    BraidBuilder builder = Braid.builder();
    settings.automation().hooksOn(builder, hookFailures);
    return tune.apply(builder
        .stateLocation(stateLocation)
        .downloadDirectory(settings.folder())
        .maxActiveDownloads(settings.maxActive())
        .maxConnectionsTotal(settings.connectionsTotal())
        .rateLimit(settings.speedLimit())
        .storedSchedule(true)
        .outageRetry(OutageRetry.DEFAULT)
        .runQueue(true))
        .hostRules(rules.rules())
        .build();
  }
}
