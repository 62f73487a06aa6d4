package dev.braid.core.internal.probe;

import dev.braid.core.internal.advert.Advertised;
import dev.braid.core.internal.fetch.RangeSource;
import dev.braid.core.internal.http.Exchange;
import dev.braid.store.RemoteIdentity;

/**
 * What the probe learned, and its still-open response.
 *
 * @param exchange the response, positioned at byte {@code offset} of the file; null when there is no body
 * @param offset where the body starts: the first byte asked for when the server sent a range, else 0
 * @param identity length, validators, range support and final URL
 * @param contentDisposition the Content-Disposition header, or null
 * @param encoding the Content-Encoding header (the representation's coding, which every later
 *     response must repeat), or null
 * @param advertised the digest and mirrors the response head advertises ({@link Advertised#NONE} for none)
 */
public record ProbeResult(Exchange exchange, long offset, RemoteIdentity identity, String contentDisposition,
    String encoding, Advertised advertised) {
  /** Where this download's ranges come from, as this answer describes it. */
  public RangeSource source() {
    return new RangeSource(identity, encoding);
  }
}
