package dev.braid.core.internal.fetch;

import dev.braid.store.RemoteIdentity;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one representation a download's ranges come from at one URL: the remote file as the probe
 * saw it, plus its content coding ({@code Content-Encoding}, null for none), which every later
 * response must repeat. Also remembers whether that server honours If-Range: a server that
 * answers a ranged If-Range request with a 200 carrying the very validators the probe saw (Apache
 * for a file modified within the last second, where it calls its own Last-Modified weak) is sent
 * no If-Range from then on, and its 206 responses must carry those validators instead.
 * Thread-safe: the workers of a pass share it.
 */
public final class RangeSource {
  private final RemoteIdentity identity;
  private final String encoding;
  private volatile boolean ifRangeIgnored;
  private final AtomicBoolean told = new AtomicBoolean();

  /** @param encoding the probe's Content-Encoding, as sent (null, empty or {@code identity} for none) */
  public RangeSource(RemoteIdentity identity, String encoding) {
    this.identity = identity;
    this.encoding = normalize(encoding);
  }

  public RemoteIdentity identity() {
    return identity;
  }

  /** The content coding every response must carry, lower case; null for none. */
  public String encoding() {
    return encoding;
  }

  /** The If-Range to send, or null (no validator to send, or the server ignores it for this file). */
  String ifRange() {
    return ifRangeIgnored ? null : Validators.ifRange(identity);
  }

  /** Whether ranges go without If-Range since the server answered one with the unchanged whole file. */
  public boolean ifRangeIgnored() {
    return ifRangeIgnored;
  }

  void ignoreIfRange() {
    ifRangeIgnored = true;
  }

  /** True once, for the first caller after If-Range was given up: whoever reports it to the user. */
  public boolean claimIfRangeNotice() {
    return ifRangeIgnored && told.compareAndSet(false, true);
  }

  /** A Content-Encoding header as a coding to compare: lower case, null for none or identity. */
  static String normalize(String header) {
    if (header == null) {
      return null;
    }
    String c = header.trim().toLowerCase(Locale.ROOT);
    return c.isEmpty() || c.equals("identity") ? null : c;
  }
}
