package dev.braid.core.http;

import java.time.Duration;
import javax.net.ssl.SSLContext;

/**
 * How the shared client behaves.
 *
 * @param connectTimeout limit on TCP connect
 * @param readTimeout idle-read limit: a connection silent this long is dropped and its range retried
 * @param maxConnectionsPerHost pool cap per route
 * @param maxRedirects redirects followed before giving up
 * @param userAgent the User-Agent header
 * @param allowDowngrade whether a redirect from https to http is followed
 * @param tls the TLS context, or null for the JDK's default (built on the first https connection)
 */
public record HttpSettings(Duration connectTimeout, Duration readTimeout, int maxConnectionsPerHost, int maxRedirects,
    String userAgent, boolean allowDowngrade, SSLContext tls) {}
