package dev.braid.core.fetch;

import dev.braid.core.HttpStatusException;
import dev.braid.core.ProxyAuthenticationException;
import dev.braid.core.RedirectRefusedException;
import dev.braid.core.http.Exchange;
import dev.braid.core.http.OriginHeaders;
import dev.braid.core.http.PhaseRecorder;
import dev.braid.core.http.ProxyAuthFailure;
import dev.braid.core.http.RedirectProblem;
import dev.braid.core.http.Requester;
import dev.braid.state.RemoteIdentity;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Opens {@code GET Range: bytes=from-(to-1)} with If-Range and accepts the response only if it is
 * exactly what was asked: 206, Content-Range starting at {@code from} and ending at {@code to - 1},
 * the same total and validators, identity encoding. Anything else is aborted before a byte of its
 * body is read (invariant 2).
 */
public final class RangeRequest {
  private RangeRequest() {}

  public static Exchange open(Requester http, RemoteIdentity id, OriginHeaders headers, PhaseRecorder recorder,
      long from, long to)
      throws TransientFailure, RemoteChanged, HttpStatusException, RedirectRefusedException,
      ProxyAuthenticationException {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Range", "bytes=" + from + "-" + (to - 1));
    String ifRange = Validators.ifRange(id);
    if (ifRange != null) {
      h.put("If-Range", ifRange);
    }
    Exchange ex = send(http, id, h, headers, recorder);
    try {
      check(ex, id, from, to);
      return ex;
    } catch (TransientFailure | RemoteChanged | HttpStatusException | RuntimeException e) {
      ex.abort();
      throw e;
    }
  }

  /**
   * Opens a plain GET for the whole file, for a server without ranges: accepted only as a 200 with
   * the same length and validators as before.
   */
  public static Exchange openWhole(Requester http, RemoteIdentity id, OriginHeaders headers, PhaseRecorder recorder)
      throws TransientFailure, RemoteChanged, HttpStatusException, RedirectRefusedException,
      ProxyAuthenticationException {
    Exchange ex = send(http, id, Map.of(), headers, recorder);
    try {
      StatusCheck.require(ex, 200);
      if (!Objects.equals(id.etag(), ex.header("ETag")) || ex.contentLength() != id.length()
          || !Objects.equals(id.lastModified(), ex.header("Last-Modified"))) {
        throw new RemoteChanged("the file changed while it was downloaded again from the start");
      }
      return ex;
    } catch (TransientFailure | RemoteChanged | HttpStatusException | RuntimeException e) {
      ex.abort();
      throw e;
    }
  }

  /**
   * Sends the GET to the final URL; a failure before the response head is worth a retry, a redirect
   * problem or a proxy's refusal of its credentials is not.
   */
  private static Exchange send(Requester http, RemoteIdentity id, Map<String, String> headers,
      OriginHeaders userHeaders, PhaseRecorder recorder)
      throws TransientFailure, RedirectRefusedException, ProxyAuthenticationException {
    try {
      return http.get(URI.create(id.finalUrl()), headers, userHeaders, recorder);
    } catch (RedirectProblem e) {
      throw new RedirectRefusedException("cannot follow the redirects of " + id.finalUrl() + ": " + e.getMessage(), e);
    } catch (ProxyAuthFailure e) {
      throw new ProxyAuthenticationException(e.getMessage(), e);
    } catch (IOException e) {
      throw TransientFailure.network(describe(e), e);
    }
  }

  static void check(Exchange ex, RemoteIdentity id, long from, long to)
      throws TransientFailure, RemoteChanged, HttpStatusException {
    if (ex.status() == 200) {
      throw new RemoteChanged("the server answered a ranged If-Range request with the whole file (200): it changed");
    }
    if (ex.status() == 416) {
      throw new RemoteChanged("the server says bytes " + from + "-" + (to - 1) + " no longer exist (416): it changed");
    }
    StatusCheck.require(ex, 206);
    String etag = ex.header("ETag");
    if (id.etag() != null && etag != null && !id.etag().equals(etag)) {
      throw new RemoteChanged("the ETag changed from " + id.etag() + " to " + etag);
    }
    String modified = ex.header("Last-Modified");
    if (id.lastModified() != null && modified != null && !id.lastModified().equals(modified)) {
      throw new RemoteChanged("Last-Modified changed from " + id.lastModified() + " to " + modified);
    }
    ContentRange cr = ContentRange.parse(ex.header("Content-Range"));
    if (cr == null || cr.first() < 0) {
      throw TransientFailure.protocol("206 without a usable Content-Range (" + ex.header("Content-Range") + ")");
    }
    if (cr.total() != id.length()) {
      throw new RemoteChanged("the length changed from " + id.length() + " to " + cr.total() + " bytes");
    }
    if (cr.first() != from || cr.last() != to - 1) {
      throw TransientFailure.protocol("asked for bytes " + from + "-" + (to - 1) + ", the server sent "
          + cr.first() + "-" + cr.last());
    }
    String encoding = ex.header("Content-Encoding");
    if (encoding != null && !Objects.equals(encoding.trim().toLowerCase(java.util.Locale.ROOT), "identity")) {
      throw TransientFailure.protocol("the server encoded a range with " + encoding);
    }
  }

  /** A one-line cause for an I/O failure, without the exception class noise. */
  public static String describe(IOException e) {
    String m = e.getMessage();
    String kind = e.getClass().getSimpleName();
    return m == null ? kind : kind.endsWith("Exception") ? m + " (" + kind.replace("Exception", "") + ")" : m;
  }
}
