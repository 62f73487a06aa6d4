package dev.braid.core.internal.engine;

import dev.braid.core.Braid;
import dev.braid.core.DownloadHook;
import dev.braid.core.DownloadRequest;
import dev.braid.core.HookFailure;
import dev.braid.core.HostResolver;
import dev.braid.core.HttpVersion;
import dev.braid.core.OutageRetry;
import dev.braid.core.RunWindow;
import dev.braid.core.SpeedSchedule;
import dev.braid.core.Version;
import dev.braid.core.internal.http.ProxyPlan;
import dev.braid.core.rules.Rules;
import dev.braid.store.StateStore;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@code BraidBuilder}'s settings, each at its default until a setter (which checks it) changes
 * it, read by {@link EngineParts} when the builder makes the {@code Braid}. Open fields: only the
 * builder writes them, and only before the engine is built; the builder's Javadoc documents each.
 */
public final class EngineConfig {
  public String stateLocation = Braid.defaultStateDatabase().toString();
  public StateStore store;
  public Duration connectTimeout = Braid.DEFAULT_CONNECT_TIMEOUT;
  public Duration readTimeout = Braid.DEFAULT_READ_TIMEOUT;
  public int maxRetries = Braid.DEFAULT_MAX_RETRIES;
  public int maxRedirects = 10;
  public int bufferSize = Braid.DEFAULT_BUFFER_SIZE;
  public Duration checkpointInterval = Braid.DEFAULT_CHECKPOINT_INTERVAL;
  public Duration firstBackoff = Braid.DEFAULT_FIRST_BACKOFF;
  public String userAgent = "Braid/" + Version.get();
  public int maxConnectionsTotal = Braid.DEFAULT_MAX_CONNECTIONS_TOTAL;
  public boolean allowDowngrade;
  public long lowestSpeed = Braid.DEFAULT_LOWEST_SPEED;
  public Path caCertificates;
  public Path downloadDirectory;
  public int maxActiveDownloads = Braid.DEFAULT_MAX_ACTIVE_DOWNLOADS;
  public int maxConnectionsPerHost = DownloadRequest.MAX_CONNECTIONS;
  public long rateLimit;
  public boolean runQueue;
  public Duration tlsHandshakeTimeout = Braid.DEFAULT_TLS_HANDSHAKE_TIMEOUT;
  public Duration firstByteTimeout = Braid.DEFAULT_FIRST_BYTE_TIMEOUT;
  public Duration deadline;
  public boolean insecure;
  public HostResolver hostResolver = HostResolver.SYSTEM;
  public Duration dnsCacheTtl = Braid.DEFAULT_DNS_CACHE_TTL;
  public Duration idleConnectionTimeout = Braid.DEFAULT_IDLE_CONNECTION_TIMEOUT;
  public ProxyPlan proxies = ProxyPlan.DIRECT;
  public Rules hostRules = Rules.NONE;
  public InetSocketAddress metricsAddress;
  public HttpVersion httpVersion = HttpVersion.HTTP_1_1;
  public final List<DownloadHook> onComplete = new java.util.ArrayList<>();
  public final List<DownloadHook> onError = new java.util.ArrayList<>();
  public Duration hookTimeout = Braid.DEFAULT_HOOK_TIMEOUT;
  public Clock clock;
  /** Null until set: then {@code storedSchedule} may fill it. */
  public List<RunWindow> runWindows;
  /** Null until set, as the windows. */
  public SpeedSchedule speedSchedule;
  public boolean storedSchedule;
  public Consumer<HookFailure> hookFailures = f -> System.err.println("braid: " + f);
  public OutageRetry outageRetry = OutageRetry.NONE;

}
