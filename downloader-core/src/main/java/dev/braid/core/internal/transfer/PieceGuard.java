package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadRequest;
import dev.braid.core.FailureDetail;
import dev.braid.core.IntegrityException;
import dev.braid.core.PieceHashes;
import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.verify.PieceDigest;
import dev.braid.core.internal.verify.WholeUnits;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.SegmentRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Checks a download's piece hashes as pieces complete, on the driver thread at each checkpoint,
 * against bytes already forced. A piece that fails goes back to the segment table to be fetched
 * again; the mirror that served it alone is demoted (and dropped after {@value #DROP_AFTER} bad
 * pieces, while another remains), so the refetch goes elsewhere when it can. A piece with bytes
 * of several mirrors blames none: the refetch tells which. A piece that fails
 * {@value DownloadRequest#PIECE_ATTEMPTS} times halts the pass with an {@link IntegrityException};
 * the good pieces stay recorded.
 *
 * <p>Results are not stored: a new pass (a resume after a kill) hashes every piece it finds
 * complete once, as the block sums are re-read on resume. So a kill between a piece's write and
 * its check can never leave an unchecked piece counted good.
 */
final class PieceGuard {
  /** Bad pieces after which a mirror is dropped for the download. */
  static final int DROP_AFTER = 3;

  private final PieceHashes pieces;
  private final PieceDigest digest;
  private final SegmentTable table;
  private final MirrorSet mirrors;
  private final Provenance provenance;
  private final PassControl control;
  private final Consumer<String> notes;
  private final BitSet verified = new BitSet();
  private final int[] failures;

  private PieceGuard(PieceHashes pieces, long length, SegmentTable table, MirrorSet mirrors, Provenance provenance,
      PassControl control, Consumer<String> notes) {
    this.pieces = pieces;
    this.digest = new PieceDigest(pieces, length);
    this.table = table;
    this.mirrors = mirrors;
    this.provenance = provenance;
    this.control = control;
    this.notes = notes;
    this.failures = new int[pieces.hashes().size()];
  }

  /**
   * The guard of a pass, or null when the request has no piece hashes or they cannot apply here:
   * a server without ranges (a bad piece could only be fetched again with the whole file; the
   * whole-file hash still applies) or pieces that do not cover the served length (noted).
   */
  static PieceGuard of(DownloadRequest request, RemoteIdentity identity, SegmentTable table, MirrorSet mirrors,
      Provenance provenance, PassControl control, Consumer<String> notes) {
    if (request.pieceHashes().isEmpty() || provenance == null) {
      return null;
    }
    PieceHashes p = request.pieceHashes().get();
    if (!identity.ranges() || !p.fits(identity.length())) {
      notes.accept("piece hashes not checked: " + (identity.ranges() ? p + " do not cover " + identity.length() + " bytes"
          : "the server does not serve ranges"));
      return null;
    }
    return new PieceGuard(p, identity.length(), table, mirrors, provenance, control, notes);
  }

  /** Whether a recheck may reopen pieces: not once the pass is halted. */
  boolean active() {
    return !control.halted();
  }

  /**
   * Hashes the pieces {@code durable} (forced progress) shows complete that were not checked yet;
   * reopens each bad one in the table and returns their ranges ({@code [from, to)} pairs).
   */
  List<long[]> check(PartFile part, List<SegmentRecord> durable) throws IOException {
    List<long[]> reopened = new ArrayList<>();
    for (int k : complete(durable)) {
      if (verified.get(k)) {
        continue;
      }
      long from = digest.from(k);
      long to = digest.to(k);
      if (digest.matches(part, k)) {
        verified.set(k);
        provenance.forget(from, to);
        continue;
      }
      failures[k]++;
      Set<MirrorSet.Mirror> served = provenance.of(from, to);
      if (served.size() == 1) {
        notes.accept(mirrors.badPiece(served.iterator().next(), DROP_AFTER));
      } else if (served.size() > 1) {
        // which mirror's bytes were wrong is unknown: blaming each demoted the good one with the bad,
        // then no mirror was clean, the bad one stayed in use and could fail one piece three times
        notes.accept("piece " + k + " had bytes of " + served.size() + " mirrors; blamed on none of them");
      }
      provenance.forget(from, to);
      table.reopen(from, to);
      reopened.add(new long[] {from, to});
      notes.accept("piece " + k + " (bytes " + from + "-" + (to - 1) + ") failed its " + pieces.algorithm() + " hash ("
          + failures[k] + " of " + DownloadRequest.PIECE_ATTEMPTS + "); fetching it again");
      if (failures[k] >= DownloadRequest.PIECE_ATTEMPTS) {
        control.halt(new IntegrityException("piece " + k + " (bytes " + from + "-" + (to - 1) + ") failed its "
            + pieces.algorithm() + " hash " + failures[k] + " times; the pieces that passed are kept for a resume", null,
            FailureDetail.CHECKSUM));
      }
    }
    return reopened;
  }

  /** Indexes of the pieces lying wholly inside the done parts of {@code segments}. */
  private List<Integer> complete(List<SegmentRecord> segments) {
    return WholeUnits.of(segments, pieces.length(), digest.fileLength());
  }

}
