package dev.braid.core.internal.http;

import dev.braid.core.HostResolver;
import dev.braid.core.time.Ticker;
import java.time.Duration;
import java.util.concurrent.Future;
import javax.net.ssl.SSLContext;

/**
 * How the shared client behaves.
 *
 * @param connectTimeout limit on TCP connect
 * @param tlsHandshakeTimeout limit on the TLS handshake (the wait for each handshake message)
 * @param firstByteTimeout limit on the wait for a response head once the request is sent
 * @param readTimeout idle-read limit: a connection silent this long is dropped and its range retried
 * @param maxConnectionsPerHost pool cap per route
 * @param maxRedirects redirects followed before giving up
 * @param userAgent the User-Agent header
 * @param allowDowngrade whether a redirect from https to http is followed
 * @param tls the TLS context, being built, or null for the JDK's default (built on the first https connection)
 * @param insecure accept any certificate for any host name
 * @param resolver where DNS answers come from (they are cached for {@code dnsTtl})
 * @param dnsTtl how long an answer is reused
 * @param proxies which proxy, if any, each target goes through
 * @param idleConnectionTimeout how long a pooled connection may sit unused before it is closed
 * @param ticker the time the DNS cache and the HTTP/2 streams' idle reads measure
 */
public record HttpSettings(Duration connectTimeout, Duration tlsHandshakeTimeout, Duration firstByteTimeout,
    Duration readTimeout, int maxConnectionsPerHost, int maxRedirects, String userAgent, boolean allowDowngrade,
    Future<SSLContext> tls, boolean insecure, HostResolver resolver, Duration dnsTtl, ProxyPlan proxies,
    Duration idleConnectionTimeout, Ticker ticker) {}
