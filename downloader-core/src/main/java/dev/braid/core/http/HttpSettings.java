package dev.braid.core.http;

import java.time.Duration;

/**
 * How the shared client behaves.
 *
 * @param connectTimeout limit on TCP connect
 * @param readTimeout idle-read limit: a connection silent this long is dropped and its range retried
 * @param maxConnectionsPerHost pool cap per route
 * @param maxRedirects redirects followed before giving up
 * @param userAgent the User-Agent header
 * @param allowDowngrade whether a redirect from https to http is followed
 */
public record HttpSettings(Duration connectTimeout, Duration readTimeout, int maxConnectionsPerHost, int maxRedirects,
    String userAgent, boolean allowDowngrade) {}
