package dev.braid.core.fetch;

import dev.braid.state.RemoteIdentity;
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
   * Why stored bytes fetched as {@code stored} cannot be reused now that the server says
   * {@code now}; null when they can: same length, ranges supported, at least one validator that
   * proves identity, and every validator equal.
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
    if (!Objects.equals(stored.etag(), now.etag())) {
      return "the ETag changed from " + stored.etag() + " to " + now.etag();
    }
    if (!Objects.equals(stored.lastModified(), now.lastModified())) {
      return "Last-Modified changed from " + stored.lastModified() + " to " + now.lastModified();
    }
    return null;
  }
}
