package dev.braid.core.http;

import dev.braid.core.HostResolver;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.hc.client5.http.DnsResolver;

/**
 * HttpClient's {@link DnsResolver} with a cache: an answer is kept for a bounded TTL, a failure
 * for a short time (a typo'd host must not be asked again by every retry), and concurrent
 * look-ups of one name are merged: the first caller resolves, the others wait for its answer.
 * Every look-up is timed into the calling download's {@link PhaseRecorder}.
 *
 * <p>A map of our own rather than a Caffeine cache: building Caffeine's first cache in a process
 * (its generated classes, method handles and the JDK's string-concatenation bootstrap) was ~40
 * ms of every command's start-up, for a table that holds a few names.
 */
final class CachingDnsResolver implements DnsResolver {
  /** Past this many names, answers past their TTL are dropped, then every settled one. */
  static final int MAX_HOSTS = 1024;

  private final HostResolver delegate;
  private final long positiveNanos;
  private final long negativeNanos;
  private final LongSupplier clock;
  private final ConcurrentHashMap<String, Lookup> lookups = new ConcurrentHashMap<>();

  /** Either addresses or the failure that resolving met. */
  private record Answer(InetAddress[] addresses, UnknownHostException failure) {}

  /** One name's look-up: in flight, or answered and usable until {@code expiresAt}. */
  private static final class Lookup {
    final CompletableFuture<Answer> answer = new CompletableFuture<>();
    /** Written before the answer completes, so whoever sees the answer sees it too. */
    volatile long expiresAt;

    boolean usable(long now) {
      return !answer.isDone() || now - expiresAt < 0;
    }
  }

  /**
   * @param clock nanoseconds, as {@link System#nanoTime} (tests move it by hand)
   */
  CachingDnsResolver(HostResolver delegate, Duration ttl, Duration negativeTtl, LongSupplier clock) {
    this.delegate = delegate;
    this.positiveNanos = ttl.toNanos();
    this.negativeNanos = Math.min(negativeTtl.toNanos(), positiveNanos);
    this.clock = clock;
  }

  @Override
  public InetAddress[] resolve(String host) throws UnknownHostException {
    String key = host.toLowerCase(Locale.ROOT);
    long start = System.nanoTime();
    Lookup mine = new Lookup();
    Lookup found;
    // putIfAbsent is atomic: exactly one caller installs its look-up and resolves on its own
    // thread; the others join it. No lock is held while resolving, so a slow name never holds
    // up the others; an expired answer is removed and the next round installs a fresh look-up
    while ((found = lookups.putIfAbsent(key, mine)) != null && !found.usable(clock.getAsLong())) {
      lookups.remove(key, found);
    }
    Lookup used = found == null ? mine : found;
    if (used == mine) {
      if (lookups.size() > MAX_HOSTS) {
        trim();
      }
      // the TTL runs from the answer, not from the question
      Answer a = lookUp(host);
      mine.expiresAt = clock.getAsLong() + (a.failure() == null ? positiveNanos : negativeNanos);
      mine.answer.complete(a);
    }
    Answer a = used.answer.join();
    PhaseRecorder.current().dns(System.nanoTime() - start, used == mine);
    if (a.failure() != null) {
      UnknownHostException e = new UnknownHostException(a.failure().getMessage());
      e.initCause(a.failure());
      throw e;
    }
    return a.addresses().clone();
  }

  /** Drops the expired answers, then, if the table is still over its bound, every settled one. */
  private void trim() {
    long now = clock.getAsLong();
    lookups.values().removeIf(l -> !l.usable(now));
    if (lookups.size() > MAX_HOSTS) {
      lookups.values().removeIf(l -> l.answer.isDone());
    }
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
