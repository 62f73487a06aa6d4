package dev.braid.core.internal.transfer;

import dev.braid.core.internal.http.Protocol;
import dev.braid.store.ProtocolMemory;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Which HTTP version the downloads of one https host use when Braid chooses by itself, from what
 * the store remembers of it: the version that delivered more, and which version a large download
 * should measure next. Pure logic.
 *
 * <p>A version with no measurement, or one older than {@link #REMEASURE}, is due for a trial: the
 * preferred one first (HTTP/1.1 when nothing is known), then the other. The preferred version is
 * measured again by every large download anyway, so a faster version that got slower loses its
 * place at once; a slower one is retried a day later, a far slower one a week later. A server that refused HTTP/2 by ALPN is left
 * on HTTP/1.1 for {@link #FORGET_REFUSAL}.
 *
 * @param preferred the version for the probe, for small downloads and when no trial is due
 * @param trial the version a download with at least {@link #MEASURE_MIN} to fetch should use to
 *     measure it, or null when both are measured and fresh (or there is no choice)
 * @param why the reasons in words, for {@code --debug}
 * @param rivalRate during a trial, what the other version delivered when last measured (bytes per
 *     second); 0 when it was never measured or there is no trial
 */
record ProtocolPolicy(Protocol preferred, Protocol trial, String why, double rivalRate) {
  /**
   * A download is measured, and used for a trial, only with at least this much to fetch: less
   * is mostly connection set-up and the controller's ramp, and a small file should not pay for
   * a trial of the slower version.
   */
  static final long MEASURE_MIN = 32L << 20;
  static final Duration REMEASURE = Duration.ofDays(1);
  /**
   * A version that delivered less than {@link #FAR_SLOWER} of the preferred one's rate is tried
   * again only after this long: on a lossy 80 ms path HTTP/2's one connection measured 0.4 MiB/s
   * against 7.1 for HTTP/1.1, so a daily trial made one large download a day 12x slower.
   */
  static final Duration REMEASURE_FAR_SLOWER = Duration.ofDays(7);
  static final double FAR_SLOWER = 0.5;
  static final Duration FORGET_REFUSAL = Duration.ofDays(7);

  static ProtocolPolicy of(List<ProtocolMemory> memory, long nowMillis) {
    ProtocolMemory h1 = find(memory, Protocol.HTTP_1_1);
    ProtocolMemory h2 = find(memory, Protocol.HTTP_2);
    if (h2 != null && !h2.offered() && nowMillis - h2.updatedMillis() <= FORGET_REFUSAL.toMillis()) {
      return new ProtocolPolicy(Protocol.HTTP_1_1, null, "HTTP/1.1: the server did not offer HTTP/2", 0);
    }
    boolean h1Known = h1 != null && h1.offered();
    boolean h2Known = h2 != null && h2.offered();
    Protocol preferred = h2Known && (!h1Known || h2.bytesPerSecond() > h1.bytesPerSecond())
        ? Protocol.HTTP_2 : Protocol.HTTP_1_1;
    Protocol other = preferred == Protocol.HTTP_1_1 ? Protocol.HTTP_2 : Protocol.HTTP_1_1;
    ProtocolMemory best = preferred == Protocol.HTTP_2 ? h2 : h1;
    ProtocolMemory rest = preferred == Protocol.HTTP_2 ? h1 : h2;
    Duration otherAge = best != null && rest != null && rest.offered()
        && rest.bytesPerSecond() < best.bytesPerSecond() * FAR_SLOWER ? REMEASURE_FAR_SLOWER : REMEASURE;
    Protocol trial = due(memory, preferred, nowMillis, REMEASURE) ? preferred
        : due(memory, other, nowMillis, otherAge) ? other : null;
    String why = preferred + " (" + figure(h1, Protocol.HTTP_1_1) + ", " + figure(h2, Protocol.HTTP_2) + ")";
    ProtocolMemory rival = trial == null ? null : trial == Protocol.HTTP_2 ? h1 : h2;
    return new ProtocolPolicy(preferred, trial, why, rival != null && rival.offered() ? rival.bytesPerSecond() : 0);
  }

  private static boolean due(List<ProtocolMemory> memory, Protocol p, long nowMillis, Duration maxAge) {
    ProtocolMemory m = find(memory, p);
    return m == null || !m.offered() || nowMillis - m.updatedMillis() > maxAge.toMillis();
  }

  private static ProtocolMemory find(List<ProtocolMemory> memory, Protocol p) {
    return memory.stream().filter(m -> m.protocol().equals(p.alpn())).findFirst().orElse(null);
  }

  private static String figure(ProtocolMemory m, Protocol p) {
    return m == null || !m.offered() ? p + " not measured"
        : String.format(Locale.ROOT, "%s measured %.1f MiB/s", p, m.bytesPerSecond() / (1 << 20));
  }
}
