package dev.braid.core.internal.engine;

import dev.braid.core.DownloadHook;
import dev.braid.core.HookFailure;
import dev.braid.core.HostResolver;
import dev.braid.core.HttpVersion;
import dev.braid.core.OutageRetry;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import dev.braid.core.internal.http.ProxyPlan;
import dev.braid.core.rules.Rules;
import dev.braid.core.time.Ticker;
import dev.braid.store.StateStore;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@code BraidBuilder}'s settings, each set to its default by the builder's constructor and
 * changed by its setters (which check them), read by {@link EngineParts} when the builder makes
 * the {@code Braid}. Open fields: only the builder writes them, and only before the engine is
 * built; the builder's Javadoc documents each.
 */
public final class EngineConfig {
  public String stateLocation;
  public StateStore store;
  public Duration connectTimeout;
  public Duration readTimeout;
  public int maxRetries;
  public int maxRedirects;
  public int bufferSize;
  public Duration checkpointInterval;
  public Duration firstBackoff;
  public String userAgent;
  public int maxConnectionsTotal;
  public boolean allowDowngrade;
  public long lowestSpeed;
  public Path caCertificates;
  public Path downloadDirectory;
  public int maxActiveDownloads;
  public int maxConnectionsPerHost;
  public long rateLimit;
  public boolean runQueue;
  public Duration tlsHandshakeTimeout;
  public Duration firstByteTimeout;
  public Duration deadline;
  public boolean insecure;
  public HostResolver hostResolver;
  public Duration dnsCacheTtl;
  public Duration idleConnectionTimeout;
  public ProxyPlan proxies;
  public Rules hostRules;
  public InetSocketAddress metricsAddress;
  public HttpVersion httpVersion;
  public final List<DownloadHook> onComplete = new java.util.ArrayList<>();
  public final List<DownloadHook> onError = new java.util.ArrayList<>();
  public Duration hookTimeout;
  public Clock clock;
  public Ticker ticker;
  /** Null until set: then {@code storedSchedule} may fill it. */
  public List<RunWindow> runWindows;
  /** Null until set, as the windows. */
  public SpeedSchedule speedSchedule;
  public boolean storedSchedule;
  public Consumer<HookFailure> hookFailures;
  public OutageRetry outageRetry;

}
