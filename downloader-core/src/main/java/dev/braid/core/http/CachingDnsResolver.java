package dev.braid.core.http;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.braid.core.HostResolver;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.apache.hc.client5.http.DnsResolver;

/**
 * HttpClient's {@link DnsResolver} backed by a Caffeine cache: an answer is kept for a bounded
 * TTL, a failure for a short time (a typo'd host must not be asked again by every retry), and
 * concurrent look-ups of one name are merged: the first caller resolves, the others wait for its
 * answer. Every look-up is timed into the calling download's {@link PhaseRecorder}.
 */
final class CachingDnsResolver implements DnsResolver {
  private static final int MAX_HOSTS = 1024;

  private final HostResolver delegate;
  private final AsyncCache<String, Answer> cache;

  /** Either addresses or the failure that resolving met. */
  private record Answer(InetAddress[] addresses, UnknownHostException failure) {}

  CachingDnsResolver(HostResolver delegate, Duration ttl, Duration negativeTtl, Ticker ticker) {
    this.delegate = delegate;
    long positive = ttl.toNanos();
    long negative = Math.min(negativeTtl.toNanos(), positive);
    this.cache = Caffeine.newBuilder()
        .maximumSize(MAX_HOSTS)
        .ticker(ticker)
        .expireAfter(new Expiry<String, Answer>() {
          @Override
          public long expireAfterCreate(String host, Answer a, long now) {
            return a.failure() == null ? positive : negative;
          }

          // an async cache calls this when the look-up's future completes: the TTL runs from the answer
          @Override
          public long expireAfterUpdate(String host, Answer a, long now, long current) {
            return expireAfterCreate(host, a, now);
          }

          @Override
          public long expireAfterRead(String host, Answer a, long now, long current) {
            return current;
          }
        })
        .buildAsync();
  }

  @Override
  public InetAddress[] resolve(String host) throws UnknownHostException {
    String key = host.toLowerCase(Locale.ROOT);
    CompletableFuture<Answer> mine = new CompletableFuture<>();
    // putIfAbsent is atomic: exactly one caller installs its future and resolves on its own
    // thread; the others join that future. No pool thread blocks on DNS, and a slow name never
    // holds a lock other names need.
    CompletableFuture<Answer> existing = cache.asMap().putIfAbsent(key, mine);
    CompletableFuture<Answer> answer = existing != null ? existing : mine;
    long start = System.nanoTime();
    if (existing == null) {
      mine.complete(lookUp(host));
    }
    Answer a = answer.join();
    PhaseRecorder.current().dns(System.nanoTime() - start, existing == null);
    if (a.failure() != null) {
      UnknownHostException e = new UnknownHostException(a.failure().getMessage());
      e.initCause(a.failure());
      throw e;
    }
    return a.addresses().clone();
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
