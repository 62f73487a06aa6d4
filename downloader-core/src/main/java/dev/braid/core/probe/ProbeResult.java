package dev.braid.core.probe;

import dev.braid.core.http.Exchange;
import dev.braid.state.RemoteIdentity;

/**
 * What the probe learned, and its still-open response.
 *
 * @param exchange the response, positioned at byte 0 of the file; null when there is no body (an empty file)
 * @param identity length, validators, range support and final URL
 * @param contentDisposition the Content-Disposition header, or null
 */
public record ProbeResult(Exchange exchange, RemoteIdentity identity, String contentDisposition) {}
