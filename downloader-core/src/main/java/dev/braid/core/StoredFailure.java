package dev.braid.core;

import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.FileAlreadyExistsException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.hc.client5.http.ConnectTimeoutException;

/**
 * The one mapping between a failure and the text the queue keeps in its entry's error kind: the
 * exception's simple class name, as every Braid wrote it, then, where a detail is known, ':' and
 * the detail (the HTTP status of an {@link HttpStatusException}, else the {@link FailureDetail}'s
 * name in lower case with '-'): {@code HttpStatusException:404}, {@code NetworkException:timeout}.
 * A row without the suffix (written before it existed) reads as its kind with no detail; a name
 * no kind has reads as {@link FailureKind#INTERNAL}. Public for the engine's queue, which writes
 * and reads the entries; {@link DownloadFailure#of} is the form for everyone else.
 */
public final class StoredFailure {
  private static final char SEPARATOR = ':';
  private static final Map<String, FailureKind> KINDS = Map.ofEntries(
      Map.entry(InvalidRequestException.class.getSimpleName(), FailureKind.USAGE),
      Map.entry(NetworkException.class.getSimpleName(), FailureKind.NETWORK),
      Map.entry(ProxyAuthenticationException.class.getSimpleName(), FailureKind.NETWORK),
      Map.entry(HttpStatusException.class.getSimpleName(), FailureKind.HTTP_STATUS),
      Map.entry(RedirectRefusedException.class.getSimpleName(), FailureKind.HTTP_STATUS),
      Map.entry(RemoteChangedException.class.getSimpleName(), FailureKind.REMOTE_CHANGED),
      Map.entry(LocalFileException.class.getSimpleName(), FailureKind.LOCAL_IO),
      Map.entry(IntegrityException.class.getSimpleName(), FailureKind.INTEGRITY),
      Map.entry(LinkRefusedException.class.getSimpleName(), FailureKind.LINK_REFUSED),
      Map.entry(MetalinkException.class.getSimpleName(), FailureKind.METALINK),
      Map.entry(DownloadRemovedException.class.getSimpleName(), FailureKind.REMOVED));
  /** Details the class name alone says; never written as a suffix. */
  private static final Map<String, FailureDetail> IMPLIED = Map.of(
      ProxyAuthenticationException.class.getSimpleName(), FailureDetail.PROXY_AUTH,
      RedirectRefusedException.class.getSimpleName(), FailureDetail.REDIRECT);

  private StoredFailure() {}

  /**
   * {@return the text the queue keeps for {@code t}; null for none}
   *
   * @param t the failure a run ended with, or null
   */
  public static String encode(Throwable t) {
    if (t == null) {
      return null;
    }
    String name = t.getClass().getSimpleName();
    if (t instanceof HttpStatusException h && h.status() >= 100 && h.status() <= 999) {
      return name + SEPARATOR + h.status();
    }
    FailureDetail d = detailOf(t);
    return d == FailureDetail.NONE || IMPLIED.get(name) == d ? name : name + SEPARATOR + id(d);
  }

  /**
   * {@return the failure {@code stored} describes; {@link FailureKind#INTERNAL} for null or a name no kind has}
   *
   * @param stored an entry's error kind as {@link #encode} wrote it, or null
   */
  public static DownloadFailure decode(String stored) {
    if (stored == null) {
      return new DownloadFailure(FailureKind.INTERNAL, FailureDetail.NONE, 0);
    }
    int at = stored.indexOf(SEPARATOR);
    String name = at < 0 ? stored : stored.substring(0, at);
    String suffix = at < 0 ? "" : stored.substring(at + 1);
    FailureKind kind = KINDS.getOrDefault(name, FailureKind.INTERNAL);
    if (kind == FailureKind.INTERNAL) {
      return new DownloadFailure(kind, FailureDetail.NONE, 0);
    }
    FailureDetail detail = IMPLIED.getOrDefault(name, FailureDetail.NONE);
    int status = 0;
    if (name.equals(HttpStatusException.class.getSimpleName())) {
      status = statusOf(suffix);
    } else if (!suffix.isEmpty()) {
      detail = detailOfId(suffix);
    }
    return new DownloadFailure(kind, detail, status);
  }

  /** The detail the exception was given, else the one its causes show. */
  private static FailureDetail detailOf(Throwable t) {
    if (t instanceof DownloadException de && de.givenDetail() != FailureDetail.NONE) {
      return de.givenDetail();
    }
    if (t instanceof ProxyAuthenticationException) {
      return FailureDetail.PROXY_AUTH;
    }
    if (t instanceof RedirectRefusedException) {
      return FailureDetail.REDIRECT;
    }
    // a cause chain is short; the bound only guards against a cycle
    int depth = 0;
    for (Throwable c = t.getCause(); c != null && depth < 16; c = c.getCause(), depth++) {
      if (t instanceof NetworkException && c instanceof UnknownHostException) {
        return FailureDetail.NAME_RESOLUTION;
      } else if (t instanceof NetworkException && (c instanceof SocketTimeoutException
          || c instanceof ConnectTimeoutException || c instanceof TimeoutException)) {
        return FailureDetail.TIMEOUT;
      } else if (t instanceof LocalFileException && c instanceof FileAlreadyExistsException) {
        return FailureDetail.FILE_EXISTS;
      }
    }
    return FailureDetail.NONE;
  }

  private static int statusOf(String suffix) {
    try {
      int s = Integer.parseInt(suffix);
      return s >= 100 && s <= 999 ? s : 0;
    } catch (NumberFormatException e) {
      // written without a status (before the suffix existed): the kind alone
      return 0;
    }
  }

  private static String id(FailureDetail d) {
    return d.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** A detail a newer Braid wrote that this one does not know reads as none. */
  private static FailureDetail detailOfId(String suffix) {
    for (FailureDetail d : FailureDetail.values()) {
      if (id(d).equals(suffix)) {
        return d;
      }
    }
    return FailureDetail.NONE;
  }
}
