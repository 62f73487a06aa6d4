package dev.braid.core.internal.http;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.braid.core.HostResolver;
import dev.braid.core.time.Ticker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.apache.hc.client5.http.DnsResolver;

/**
 * HttpClient's {@link DnsResolver} with a cache: an answer is kept for a bounded TTL, a failure
 * for a short time (a typo'd host must not be asked again by every retry), and concurrent
 * look-ups of one name are merged: the first caller resolves, the others wait for its answer.
 * Every look-up is timed into the calling download's {@link PhaseRecorder}.
 *
 * <p>A Caffeine {@link AsyncCache} of look-ups: an entry is the future of one name's answer, so
 * the first caller installs it and resolves on its own thread while no lock is held (a slow name
 * never holds up the others), and its expiry, a TTL by kind of answer, is set when the answer
 * comes (the TTL runs from the answer, not from the question). Its maintenance runs on the
 * calling threads: no pool thread of its own.
 */
final class CachingDnsResolver implements DnsResolver {
  /** The most names kept; Caffeine evicts by its frequency and recency estimate beyond it. */
  static final int MAX_HOSTS = 1024;

  private final HostResolver delegate;
  private final AsyncCache<String, Answer> lookups;

  /** Either addresses or the failure that resolving met. */
  private record Answer(InetAddress[] addresses, UnknownHostException failure) {}

  /**
   * @param ticker the age of answers, read by Caffeine's own ticker hook (tests move it by hand)
   */
  CachingDnsResolver(HostResolver delegate, Duration ttl, Duration negativeTtl, Ticker ticker) {
    this.delegate = delegate;
    long positiveNanos = ttl.toNanos();
    long negativeNanos = Math.min(negativeTtl.toNanos(), positiveNanos);
    this.lookups = Caffeine.newBuilder()
        .maximumSize(MAX_HOSTS)
        .expireAfter(Expiry.<String, Answer>writing((host, a) -> Duration.ofNanos(a.failure() == null ? positiveNanos : negativeNanos)))
        .ticker(ticker::read)
        .executor(Runnable::run)
        .buildAsync();
  }

  @Override
  public InetAddress[] resolve(String host) throws UnknownHostException {
    String key = host.toLowerCase(Locale.ROOT);
    long start = System.nanoTime();
    CompletableFuture<Answer> mine = new CompletableFuture<>();
    CompletableFuture<Answer> used = lookups.get(key, (k, executor) -> mine);
    if (used == mine) {
      mine.complete(lookUp(host));
    }
    Answer a = used.join();
    PhaseRecorder.current().dns(System.nanoTime() - start, used == mine);
    if (a.failure() != null) {
      UnknownHostException e = new UnknownHostException(a.failure().getMessage());
      e.initCause(a.failure());
      throw e;
    }
    return a.addresses().clone();
  }

  /** The names cached now, after pending evictions ran (for tests of the bound). */
  long cachedNames() {
    lookups.synchronous().cleanUp();
    return lookups.synchronous().estimatedSize();
  }

  private Answer lookUp(String host) {
    try {
      InetAddress[] addresses = delegate.resolve(host);
      if (addresses == null || addresses.length == 0) {
        return new Answer(null, new UnknownHostException(host + ": no addresses"));
      }
      return new Answer(addresses.clone(), null);
    } catch (UnknownHostException e) {
      return new Answer(null, e);
    } catch (RuntimeException e) {
      UnknownHostException u = new UnknownHostException(host + ": " + e.getMessage());
      u.initCause(e);
      return new Answer(null, u);
    }
  }

  @Override
  public String resolveCanonicalHostname(String host) throws UnknownHostException {
    // only used for Kerberos/SPNEGO, which Braid does not offer
    return host;
  }
}
