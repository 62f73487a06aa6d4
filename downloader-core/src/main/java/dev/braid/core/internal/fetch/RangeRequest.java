package dev.braid.core.internal.fetch;

import dev.braid.core.HttpStatusException;
import dev.braid.core.ProxyAuthenticationException;
import dev.braid.core.RedirectRefusedException;
import dev.braid.core.internal.http.Exchange;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.ProxyAuthFailure;
import dev.braid.core.internal.http.RedirectProblem;
import dev.braid.core.internal.http.Requester;
import dev.braid.store.RemoteIdentity;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Opens {@code GET Range: bytes=from-(to-1)} with If-Range and accepts the response only if it is
 * exactly what was asked: 206, Content-Range starting at {@code from} and ending at {@code to - 1},
 * the same total, validators and content coding as the probe's response. Anything else is aborted
 * before a byte of its body is read (invariant 2).
 *
 * <p>A 200 is a change only when it shows one: a 200 to If-Range that carries the probe's
 * validators, length (or none) and coding is the server calling its own validator weak (Apache does so for
 * a file modified within the last second); the request goes again without If-Range, and from then
 * on every 206 of that {@link RangeSource} must carry the validators, which prove the same as
 * If-Range would: the server computes them from the file whose bytes it sends.
 */
public final class RangeRequest {
  private RangeRequest() {}

  public static Exchange open(Requester http, RangeSource src, OriginHeaders headers, PhaseRecorder recorder,
      long from, long to)
      throws TransientFailure, RemoteChanged, HttpStatusException, RedirectRefusedException,
      ProxyAuthenticationException {
    String ifRange = src.ifRange();
    Exchange ex = sendRange(http, src, headers, recorder, from, to, ifRange);
    if (ifRange != null && ex.status() == 200 && wholeDifference(ex, src) == null) {
      ex.abort();
      src.ignoreIfRange();
      ifRange = null;
      ex = sendRange(http, src, headers, recorder, from, to, null);
    }
    try {
      check(ex, src, from, to, ifRange != null);
      return ex;
    } catch (TransientFailure | RemoteChanged | HttpStatusException | RuntimeException e) {
      ex.abort();
      throw e;
    }
  }

  private static Exchange sendRange(Requester http, RangeSource src, OriginHeaders headers, PhaseRecorder recorder,
      long from, long to, String ifRange) throws TransientFailure, RedirectRefusedException, ProxyAuthenticationException {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Range", "bytes=" + from + "-" + (to - 1));
    if (ifRange != null) {
      h.put("If-Range", ifRange);
    }
    return send(http, src.identity(), h, headers, recorder);
  }

  /**
   * Opens a plain GET for the whole file, for a server without ranges: accepted only as a 200 with
   * the same length, validators and content coding as before.
   */
  public static Exchange openWhole(Requester http, RangeSource src, OriginHeaders headers, PhaseRecorder recorder)
      throws TransientFailure, RemoteChanged, HttpStatusException, RedirectRefusedException,
      ProxyAuthenticationException {
    RemoteIdentity id = src.identity();
    Exchange ex = send(http, id, Map.of(), headers, recorder);
    try {
      StatusCheck.require(ex, 200);
      if (!Objects.equals(id.etag(), ex.header("ETag")) || ex.contentLength() != id.length()
          || !Objects.equals(id.lastModified(), ex.header("Last-Modified"))) {
        throw new RemoteChanged("the file changed while it was downloaded again from the start");
      }
      requireEncoding(ex, src);
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

  static void check(Exchange ex, RangeSource src, long from, long to, boolean ifRangeSent)
      throws TransientFailure, RemoteChanged, HttpStatusException {
    RemoteIdentity id = src.identity();
    if (ex.status() == 200) {
      String why = wholeDifference(ex, src);
      if (why != null) {
        throw new RemoteChanged("the server answered a ranged request with the whole file (200): " + why);
      }
      if (from == 0) {
        // the same file from byte 0: its start is the range asked for; the streamer stops at its end
        return;
      }
      throw new RangesRefused("the server answered a range of the unchanged file with the whole file (200)");
    }
    if (ex.status() == 416) {
      throw new RemoteChanged("the server says bytes " + from + "-" + (to - 1) + " no longer exist (416): it changed");
    }
    StatusCheck.require(ex, 206);
    String etag = ex.header("ETag");
    String modified = ex.header("Last-Modified");
    String why = Validators.difference(id, etag, modified);
    if (why != null) {
      throw new RemoteChanged(why);
    }
    if (!ifRangeSent && src.ifRangeIgnored() && !proves(id, etag, modified)) {
      // without If-Range, only the validators of the 206 itself show it is of the same file
      throw TransientFailure.protocol("a 206 without the validators " + id.etag() + " / " + id.lastModified()
          + " of the file, from a server that ignores If-Range for it");
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
    requireEncoding(ex, src);
  }

  /** Whether a response carries every validator the probe saw (so equal ones prove the same file). */
  private static boolean proves(RemoteIdentity id, String etag, String modified) {
    return (id.etag() == null || etag != null) && (id.lastModified() == null || modified != null);
  }

  /**
   * Why a 200 is not the unchanged file: a validator that differs or is missing, another length
   * or another content coding; null when it is the file the probe saw. A length the 200 does not
   * declare (HTTP/2 needs no Content-Length) shows no change: the 206s asked for next declare
   * their total, which is checked.
   */
  private static String wholeDifference(Exchange ex, RangeSource src) {
    RemoteIdentity id = src.identity();
    String etag = ex.header("ETag");
    String modified = ex.header("Last-Modified");
    String why = Validators.difference(id, etag, modified);
    if (why != null) {
      return why;
    }
    if (!proves(id, etag, modified) || id.etag() == null && id.lastModified() == null) {
      return "it carries no validators that show it is the same file";
    }
    // HTTP/2 and chunked 200s need not declare a length: unknown is no evidence of another one
    if (ex.contentLength() >= 0 && ex.contentLength() != id.length()) {
      return "the length changed from " + id.length() + " to " + ex.contentLength() + " bytes";
    }
    String coding = RangeSource.normalize(ex.header("Content-Encoding"));
    if (!Objects.equals(coding, src.encoding())) {
      return "its Content-Encoding is " + describeCoding(coding) + ", not " + describeCoding(src.encoding());
    }
    return null;
  }

  /**
   * One representation per download: every response carries the probe's content coding. A server
   * that encodes anyway (Apache's {@code AddEncoding gzip .gz}) does so on every response, and
   * those bytes are the file as served; one that switches codings between responses would splice
   * two representations.
   */
  private static void requireEncoding(Exchange ex, RangeSource src) throws TransientFailure {
    String coding = RangeSource.normalize(ex.header("Content-Encoding"));
    if (!Objects.equals(coding, src.encoding())) {
      throw TransientFailure.protocol("the server sent a response with Content-Encoding " + describeCoding(coding)
          + " for a download of the " + describeCoding(src.encoding()) + " representation");
    }
  }

  private static String describeCoding(String coding) {
    return coding == null ? "identity" : coding;
  }

  /** A one-line cause for an I/O failure, without the exception class noise. */
  public static String describe(IOException e) {
    String m = e.getMessage();
    String kind = e.getClass().getSimpleName();
    return m == null ? kind : kind.endsWith("Exception") ? m + " (" + kind.replace("Exception", "") + ")" : m;
  }
}
