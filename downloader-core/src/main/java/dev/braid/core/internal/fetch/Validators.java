package dev.braid.core.internal.fetch;

import dev.braid.store.RemoteIdentity;
import java.util.Objects;

/** Rules for telling whether the server's file is still the one whose bytes are on disk. */
public final class Validators {
  private Validators() {}

  /** A strong ETag (not {@code W/}) can prove byte identity; a weak one cannot. */
  public static boolean isStrong(String etag) {
    return etag != null && !etag.startsWith("W/");
  }

  /**
   * The If-Range value for ranged requests: the strong ETag, else Last-Modified, else null (the
   * server then cannot tell us the file changed, so the total length is the only check left).
   */
  public static String ifRange(RemoteIdentity id) {
    if (isStrong(id.etag())) {
      return id.etag();
    }
    return id.lastModified();
  }

  /**
   * Whether ETag {@code now} names the same file as {@code before}: equal, or the same opaque tag
   * once weak and once strong while the Last-Modified dates agree. Apache marks the ETag of a file
   * modified within the last second weak and the same tag strong a second later; with an unchanged
   * date, inode, size and modification time are the same, so the file is.
   */
  static boolean sameEtag(String before, String now, boolean sameDate) {
    if (Objects.equals(before, now)) {
      return true;
    }
    return sameDate && before != null && now != null && sameTag(before, now);
  }

  private static String opaque(String etag) {
    return etag.startsWith("W/") ? etag.substring(2) : etag;
  }

  /** Whether two ETags carry the same opaque tag, each weak or strong (Apache's flip a second after a change). */
  public static boolean sameTag(String a, String b) {
    return opaque(a).equals(opaque(b));
  }

  /**
   * Why a response with {@code etag} and {@code lastModified} is not of the file {@code id}
   * describes; null when every validator both sides have agrees. A validator the response lacks is
   * not a difference here: {@link RangeRequest} asks for them where it must.
   */
  static String difference(RemoteIdentity id, String etag, String lastModified) {
    boolean sameDate = id.lastModified() != null && id.lastModified().equals(lastModified);
    if (id.etag() != null && etag != null && !sameEtag(id.etag(), etag, sameDate)) {
      return "the ETag changed from " + id.etag() + " to " + etag;
    }
    if (id.lastModified() != null && lastModified != null && !sameDate) {
      return "Last-Modified changed from " + id.lastModified() + " to " + lastModified;
    }
    return null;
  }

  /**
   * Why stored bytes fetched as {@code stored} cannot be reused now that the server says
   * {@code now}; null when they can: same length, ranges supported, at least one validator that
   * proves identity, and every validator equal (an ETag turned from weak to strong counts as equal,
   * see {@link #sameEtag}).
   */
  public static String whyNotResumable(RemoteIdentity stored, RemoteIdentity now) {
    if (!now.ranges() || !stored.ranges()) {
      return "the server does not support byte ranges";
    }
    if (stored.length() < 0 || stored.length() != now.length()) {
      return "the length changed from " + stored.length() + " to " + now.length() + " bytes";
    }
    if (!isStrong(stored.etag()) && stored.lastModified() == null) {
      return "the server gave no strong ETag or Last-Modified to prove the file is unchanged";
    }
    boolean sameDate = Objects.equals(stored.lastModified(), now.lastModified());
    if (!sameEtag(stored.etag(), now.etag(), sameDate && stored.lastModified() != null)) {
      return "the ETag changed from " + stored.etag() + " to " + now.etag();
    }
    if (!sameDate) {
      return "Last-Modified changed from " + stored.lastModified() + " to " + now.lastModified();
    }
    return null;
  }
}
