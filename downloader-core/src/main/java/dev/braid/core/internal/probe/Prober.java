package dev.braid.core.internal.probe;

import dev.braid.core.HttpStatusException;
import dev.braid.core.NetworkException;
import dev.braid.core.ProxyAuthenticationException;
import dev.braid.core.RedirectRefusedException;
import dev.braid.core.internal.advert.Advertised;
import dev.braid.core.internal.fetch.ContentRange;
import dev.braid.core.internal.fetch.RangeRequest;
import dev.braid.core.internal.fetch.StatusCheck;
import dev.braid.core.internal.fetch.TransientFailure;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.H2NotOffered;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Requester;
import dev.braid.core.internal.http.ProxyAuthFailure;
import dev.braid.core.internal.http.RedirectProblem;
import dev.braid.store.RemoteIdentity;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;
import java.util.Map;
import org.apache.hc.core5.http.MessageConstraintException;

/**
 * One ranged {@code GET}: a single round trip that tells length, validators, range support (206
 * or not), the final URL and a name, and whose body is then streamed as the first request of the
 * first segment instead of being thrown away. A fresh download asks from byte 0; a resume asks
 * from its first missing byte, so the probe's body is useful data in both cases.
 */
public final class Prober {
  /**
   * Sent on a download's probe (RFC 9530 section 4): a server that computes digests on request
   * then sends the file's, which is checked before the rename; one header on one request per
   * pass, which a server without digests ignores. sha-256 preferred, sha-512 accepted.
   */
  static final String WANT_REPR_DIGEST = "sha-256=10, sha-512=5";

  private Prober() {}

  /** As {@link #probe(Requester, URI, OriginHeaders, PhaseRecorder, long, long, boolean)}, without asking for a digest. */
  public static ProbeResult probe(Requester http, URI uri, OriginHeaders headers, PhaseRecorder recorder, long from,
      long to)
      throws NetworkException, TransientFailure, HttpStatusException, RedirectRefusedException {
    return probe(http, uri, headers, recorder, from, to, false);
  }

  /**
   * Probes {@code uri} for the bytes from {@code from} to {@code to} (exclusive; a server clamps it
   * to the length, and its Content-Range tells the total). The range is bounded like every other
   * request: an open one would let the server push the rest of the file into socket buffers, to be
   * thrown away at the first split.
   *
   * @param wantDigest whether to ask for the file's digest ({@value #WANT_REPR_DIGEST}): a
   *     download's probe does, a mirror's check does not
   * @throws NetworkException for an unknown host, a refused connection, a failed TLS handshake or
   *     HTTP/2 forced on a server without it: retrying the first request would only make the user
   *     wait for the same answer; a {@link ProxyAuthenticationException} when a proxy refuses its
   *     credentials or wants some it was not given
   * @throws TransientFailure for what a retry may fix (reset, timeout, 5xx, 429)
   * @throws HttpStatusException for a final error status
   */
  public static ProbeResult probe(Requester http, URI uri, OriginHeaders headers, PhaseRecorder recorder, long from,
      long to, boolean wantDigest)
      throws NetworkException, TransientFailure, HttpStatusException, RedirectRefusedException {
    String range = "bytes=" + from + "-" + (to - 1);
    Map<String, String> h = wantDigest ? Map.of("Range", range, "Want-Repr-Digest", WANT_REPR_DIGEST)
        : Map.of("Range", range);
    Exchange ex;
    try {
      ex = http.get(uri, h, headers, recorder);
    } catch (UnknownHostException e) {
      throw new NetworkException("cannot resolve host " + uri.getHost(), e);
    } catch (RedirectProblem e) {
      throw new RedirectRefusedException("cannot follow the redirects of " + uri + ": " + e.getMessage(), e);
    } catch (ProxyAuthFailure e) {
      throw new ProxyAuthenticationException(e.getMessage(), e);
    } catch (ConnectException e) {
      throw new NetworkException("cannot connect to " + uri.getHost() + portOf(uri) + ": " + RangeRequest.describe(e), e);
    } catch (SSLHandshakeException | SSLPeerUnverifiedException e) {
      // an untrusted certificate or a failed negotiation is the same on every try
      throw new NetworkException("TLS with " + uri.getHost() + portOf(uri) + " failed (certificate not trusted or no"
          + " common protocol): " + e.getMessage(), e);
    } catch (H2NotOffered e) {
      // HTTP/2 was forced (a download that chooses by itself falls back before this)
      throw new NetworkException(e.getMessage() + "; it speaks HTTP/1.1 only (use --http1.1 or --http-auto)", e);
    } catch (MessageConstraintException e) {
      // a head beyond the transport's bounds (a huge or endless header) would come again on every try
      throw new NetworkException("the response of " + uri.getHost() + portOf(uri) + " has a head beyond Braid's limits: "
          + e.getMessage(), e);
    } catch (IOException e) {
      throw TransientFailure.network("request to " + uri + " failed: " + RangeRequest.describe(e), e);
    }
    try {
      return read(ex, from);
    } catch (TransientFailure | HttpStatusException | RuntimeException e) {
      ex.abort();
      throw e;
    }
  }

  private static ProbeResult read(Exchange ex, long from) throws TransientFailure, HttpStatusException {
    String finalUrl = ex.finalUri().toString();
    String etag = ex.header("ETag");
    String modified = ex.header("Last-Modified");
    String disposition = ex.header("Content-Disposition");
    String encoding = ex.header("Content-Encoding");
    ContentRange cr = ContentRange.parse(ex.header("Content-Range"));
    if (ex.status() == 416 && cr != null && cr.first() < 0) {
      // nothing at or after `from`: an empty file, or one shorter than the bytes already on disk; the
      // digests of an error response describe no file
      ex.close();
      return new ProbeResult(null, 0, new RemoteIdentity(finalUrl, cr.total(), etag, modified, true), disposition, null,
          Advertised.NONE);
    }
    StatusCheck.require(ex, 200, 206);
    if (ex.status() == 206) {
      if (cr == null || cr.first() != from) {
        throw TransientFailure.protocol("asked for bytes=" + from + "-, the server answered 206 with Content-Range "
            + ex.header("Content-Range"));
      }
      boolean knownTotal = cr.total() >= 0;
      long length = knownTotal ? cr.total() : -1;
      boolean whole = cr.first() == 0 && knownTotal && cr.last() == cr.total() - 1;
      return new ProbeResult(ex, from, new RemoteIdentity(finalUrl, length, etag, modified, knownTotal), disposition,
          encoding, advertised(ex, whole ? null : ex.header("Content-Range")));
    }
    return new ProbeResult(ex, 0, new RemoteIdentity(finalUrl, ex.contentLength(), etag, modified, false), disposition,
        encoding, advertised(ex, null));
  }

  /** What the head advertises; {@code partOnly} is the Content-Range of a part, null for the whole file. */
  private static Advertised advertised(Exchange ex, String partOnly) {
    return Advertised.read(ex::headers, ex.finalUri(), partOnly);
  }

  private static String portOf(URI uri) {
    return uri.getPort() < 0 ? "" : ":" + uri.getPort();
  }
}
