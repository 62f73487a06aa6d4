package dev.braid.cli;

import dev.braid.core.DownloadResult;
import java.util.Optional;

/** The one line printed when a download completes. */
final class Summary {
  private Summary() {}

  static String of(DownloadResult r, Optional<String> restartReason) {
    if (r.bytesFetched() == 0 && r.bytesReused() == r.length() && r.elapsed().isZero()) {
      return "already complete: " + r.file() + " (" + Units.bytes(r.length()) + ")";
    }
    double seconds = Math.max(r.elapsed().toMillis(), 1) / 1000.0;
    StringBuilder b = new StringBuilder("saved ").append(r.file()).append(" (").append(Units.bytes(r.length()));
    b.append(" in ").append(Units.duration(r.elapsed()));
    b.append(", ").append(Units.bytes(r.bytesFetched() / seconds)).append("/s");
    if (r.bytesReused() > 0) {
      b.append(", resumed with ").append(Units.bytes(r.bytesReused())).append(" already on disk");
    }
    b.append(")");
    restartReason.ifPresent(why -> b.append("\nbraid: downloaded again from the start: ").append(why));
    return b.toString();
  }
}
