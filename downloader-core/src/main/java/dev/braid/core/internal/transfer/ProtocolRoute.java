package dev.braid.core.internal.transfer;

import dev.braid.core.HttpVersion;
import dev.braid.core.internal.http.ConnectionWarmup;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.H2NotOffered;
import dev.braid.core.internal.http.HttpTransport;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Protocol;
import dev.braid.core.internal.http.RequestProxy;
import dev.braid.core.internal.http.Requester;
import dev.braid.store.HostKnowledge;
import dev.braid.store.ProtocolMemory;
import dev.braid.store.StoreException;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The HTTP version of one download's requests. Forced ({@code --http1.1}, {@code --http2}) it never
 * changes. Chosen by Braid ({@link HttpVersion#AUTO}), the driver sets it before the probe (the
 * host's preferred version) and again after it, once the size tells whether the pass can measure
 * a version that is due for a trial (see {@link ProtocolPolicy}); at the end of a pass it records
 * what the version delivered. A server that refuses HTTP/2 by ALPN is remembered as such, and the
 * download continues on HTTP/1.1 at once: the refused request is sent again over it.
 *
 * <p>Read by every worker thread; set by the driver, or by whichever worker meets the refusal.
 */
final class ProtocolRoute implements Requester {
  /** A trial is judged once it has run this long: time for its connections to ramp up. */
  static final long JUDGE_NANOS = 5_000_000_000L;

  private final HttpTransport http;
  /** The download's own proxy, on every request and warm connection of it. */
  private final RequestProxy proxy;
  private final HostKnowledge store;
  private final boolean auto;
  /** The wall time a host's protocol memory is stamped and aged with. */
  private final Clock clock;
  private volatile Protocol protocol;
  /** Set once a refusal moved this download to HTTP/1.1: its pass then measures neither version. */
  private volatile boolean fellBack;
  /** The version this pass is a trial of, while the trial runs; null otherwise. Driver thread. */
  private Protocol trialOf;
  /** What the other version delivered when last measured, for judging the trial; 0 if unknown. */
  private double rivalRate;
  /** Set when a losing trial moved the pass to the other version: the pass then measures nothing more. */
  private boolean abandoned;

  ProtocolRoute(HttpTransport http, RequestProxy proxy, HostKnowledge store, HttpVersion version, Clock clock) {
    this.http = http;
    this.clock = clock;
    this.proxy = proxy;
    this.store = store;
    this.auto = version == HttpVersion.AUTO;
    this.protocol = version == HttpVersion.HTTP_2 ? Protocol.HTTP_2 : Protocol.HTTP_1_1;
  }

  @Override
  public Exchange get(URI uri, Map<String, String> headers, OriginHeaders userHeaders, PhaseRecorder recorder)
      throws IOException {
    Protocol p = protocol;
    try {
      return http.get(p, uri, headers, userHeaders, recorder, proxy);
    } catch (H2NotOffered e) {
      if (!auto) {
        throw e;
      }
      remember(new ProtocolMemory(HostConnections.hostOf(uri), Protocol.HTTP_2.alpn(), false, 0, clock.millis()));
      fellBack = true;
      protocol = Protocol.HTTP_1_1;
      return http.get(Protocol.HTTP_1_1, uri, headers, userHeaders, recorder, proxy);
    }
  }

  /**
   * Warms {@code wanted} connections for the requests to {@code uri} (see
   * {@link HttpTransport#warm}); none over HTTP/2, where every request is a stream of one connection.
   */
  ConnectionWarmup warm(URI uri, int wanted, boolean probeHolding, PhaseRecorder recorder, Executor executor) {
    return protocolFor(uri) == Protocol.HTTP_2 ? ConnectionWarmup.NONE
        : http.warm(uri, wanted, probeHolding, recorder, executor, proxy);
  }

  /** The version a request for {@code uri} goes over now. */
  Protocol protocolFor(URI uri) {
    return protocol == Protocol.HTTP_2 && http.http2Possible(uri, proxy) ? Protocol.HTTP_2 : Protocol.HTTP_1_1;
  }

  /** Before the probe: the preferred version of the URL's host (a no-op when the version is forced). */
  void beforeProbe(URI uri) {
    trialOf = null;
    abandoned = false;
    if (auto) {
      fellBack = false;
      protocol = http.http2Possible(uri, proxy) ? policy(uri).preferred() : Protocol.HTTP_1_1;
    }
  }

  /**
   * After the probe: the version for the pass over {@code finalUri}. It is a trial of a version
   * due for measuring when the pass can measure one ({@code measurable}: at least
   * {@link ProtocolPolicy#MEASURE_MIN} to fetch, no rate limit, no mirrors). Returns why, for
   * {@code --debug}, or null when the version is forced or there is no choice (plain http, proxy).
   */
  String forPass(URI finalUri, boolean measurable) {
    if (!auto || !http.http2Possible(finalUri, proxy)) {
      return null;
    }
    if (fellBack) {
      return "HTTP/1.1: the server did not offer HTTP/2";
    }
    ProtocolPolicy policy = policy(finalUri);
    boolean trial = measurable && policy.trial() != null;
    protocol = trial ? policy.trial() : policy.preferred();
    trialOf = trial ? protocol : null;
    rivalRate = trial ? policy.rivalRate() : 0;
    return (trial ? "trial of " + protocol + "; preferred " : "") + policy.why();
  }

  /**
   * During a trial, on the driver thread, {@code bytes} fetched in the {@code nanos} since the pass
   * began: a version delivering under {@link ProtocolPolicy#FAR_SLOWER} of the other's remembered
   * rate after {@link #JUDGE_NANOS} is recorded at that rate, and the rest of the pass goes over
   * the other version (requests in flight finish as they are). Returns why, or null while the
   * trial goes on. On a lossy 80 ms path an HTTP/2 trial ran 122 s at 0.4 MiB/s where HTTP/1.1
   * takes 10 s at 7.1: a trial that loses that clearly need not run to the end to be measured.
   */
  String judgeTrial(URI finalUri, long bytes, long nanos) {
    Protocol trial = trialOf;
    if (trial == null || fellBack || rivalRate <= 0 || nanos < JUDGE_NANOS) {
      return null;
    }
    double rate = bytes * 1e9 / nanos;
    if (rate >= rivalRate * ProtocolPolicy.FAR_SLOWER) {
      return null;
    }
    remember(new ProtocolMemory(HostConnections.hostOf(finalUri), trial.alpn(), true, rate, clock.millis()));
    trialOf = null;
    abandoned = true;
    protocol = trial == Protocol.HTTP_2 ? Protocol.HTTP_1_1 : Protocol.HTTP_2;
    return String.format(Locale.ROOT, "trial of %s stopped: %.1f MiB/s after %d s, under half of %s's %.1f MiB/s",
        trial, rate / (1 << 20), nanos / 1_000_000_000L, protocol, rivalRate / (1 << 20));
  }

  /**
   * After a complete pass that could measure its version: records its throughput for the host of
   * {@code finalUri}. Passes that fell back from HTTP/2 measured nothing clean and record nothing.
   */
  void measured(URI finalUri, long bytes, long nanos) {
    if (!auto || fellBack || abandoned || !http.http2Possible(finalUri, proxy) || nanos <= 0) {
      return;
    }
    remember(new ProtocolMemory(HostConnections.hostOf(finalUri), protocol.alpn(), true, bytes * 1e9 / nanos,
        clock.millis()));
  }

  private ProtocolPolicy policy(URI uri) {
    return ProtocolPolicy.of(store.protocols(HostConnections.hostOf(uri)), clock.millis());
  }

  private void remember(ProtocolMemory m) {
    try {
      store.remember(m);
    } catch (StoreException e) {
      // what a host speaks is an optimisation; the download itself matters more
    }
  }
}
