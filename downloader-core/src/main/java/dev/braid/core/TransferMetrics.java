package dev.braid.core;

import java.time.Duration;

/**
 * What one download's connections spent their time on, phase by phase, and how well they were
 * reused. Immutable; {@link Download#metrics()} gives a snapshot while a download runs,
 * {@link DownloadResult#metrics()} the final one. Times are sums over all connections (phases of
 * parallel connections overlap, so a sum can exceed the wall time).
 *
 * @param dnsLookups look-ups the resolver was asked for (cache misses)
 * @param dnsCacheHits look-ups answered from the DNS cache (or merged into one in flight)
 * @param dnsTime time spent waiting for DNS answers
 * @param connectionsOpened TCP connections opened, those opened ahead of the ranges included
 * @param connectTime time spent in TCP connects
 * @param tlsHandshakes TLS handshakes completed
 * @param tlsResumed of those, the ones that resumed an earlier session (no certificate exchange)
 * @param tlsTime time spent in TLS handshakes
 * @param requests HTTP requests whose response head arrived
 * @param requestsOnReusedConnections of those, the ones sent on a connection they did not open: one that had carried
 *     a request before, or one opened ahead of the ranges while the probe was in flight
 * @param timeToFirstByte time from sending a request to its response head, summed over requests
 * @param retries requests tried again after a failure (network error, 5xx, 429, a response that failed validation)
 * @param bytes body bytes received into the file
 */
public record TransferMetrics(long dnsLookups, long dnsCacheHits, Duration dnsTime, long connectionsOpened,
    Duration connectTime, long tlsHandshakes, long tlsResumed, Duration tlsTime, long requests,
    long requestsOnReusedConnections, Duration timeToFirstByte, long retries, long bytes) {

  /** Nothing measured yet. */
  public static final TransferMetrics NONE = new TransferMetrics(0, 0, Duration.ZERO, 0, Duration.ZERO, 0, 0,
      Duration.ZERO, 0, 0, Duration.ZERO, 0, 0);

  /** {@return share of requests that went over an already used connection, 0 to 1 (0 without requests)} */
  public double connectionReuseRatio() {
    return requests == 0 ? 0 : (double) requestsOnReusedConnections / requests;
  }

  /** {@return share of TLS handshakes that resumed a session, 0 to 1 (0 without handshakes)} */
  public double tlsResumptionRatio() {
    return tlsHandshakes == 0 ? 0 : (double) tlsResumed / tlsHandshakes;
  }

  /** {@return mean time to first byte per request, zero without requests} */
  public Duration meanTimeToFirstByte() {
    return requests == 0 ? Duration.ZERO : timeToFirstByte.dividedBy(requests);
  }
}
