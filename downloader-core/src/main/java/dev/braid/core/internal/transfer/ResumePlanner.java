package dev.braid.core.internal.transfer;

import dev.braid.core.DownloadException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.FailureDetail;
import dev.braid.core.LinkRefusedException;
import dev.braid.core.LocalFileException;
import dev.braid.core.RemoteChangedException;
import dev.braid.core.internal.fetch.RangeRequest;
import dev.braid.core.internal.fetch.RangeSource;
import dev.braid.core.internal.fetch.SegmentStreamer;
import dev.braid.core.internal.fetch.Validators;
import dev.braid.core.internal.http.OriginHeaders;
import dev.braid.core.internal.http.PhaseRecorder;
import dev.braid.core.internal.http.Requester;
import dev.braid.core.internal.io.PartFile;
import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.verify.BlockSums;
import dev.braid.core.time.Ticker;
import dev.braid.store.DownloadRecord;
import dev.braid.store.DownloadState;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.ResumeRecords;
import dev.braid.store.SegmentRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Crash recovery and resume planning for one pass, on the driver thread: finds the download this
 * request continues, tells the probe where to start, and turns the store's record, the part file
 * and the probe's answer into a {@link ResumePlan} (resumed with its damaged blocks repaired, or
 * fresh). It writes the store as it decides; {@link #recordId()} tells the caller which record a
 * failure belongs to even when no plan came back.
 */
final class ResumePlanner {
  /**
   * The bytes the probe asks for, {@code to} exclusive; the first {@code held} of them are on disk
   * already, to be compared with the server's ({@link HeldBytes}).
   */
  record ProbeRange(long from, long to, int held) {}

  private final DownloadRequest request;
  private final OriginHeaders headers;
  private final ResumeRecords records;
  /** Where the store is, for messages. */
  private final String storeLocation;
  /** Asks a refreshed link for samples of the recorded blocks ({@link LinkProof}). */
  private final Requester http;
  private final PhaseRecorder recorder;
  /** Hears restarts, damaged blocks and a continued link. */
  private final DownloadLog log;
  private final Ticker ticker;
  private long recordId = -1;

  /**
   * @param request the pass's request
   * @param headers the user's headers for the request's origin
   * @param storeLocation where {@code records} are, for messages (never with a password)
   */
  ResumePlanner(DownloadRequest request, OriginHeaders headers, ResumeRecords records, String storeLocation,
      Requester http, PhaseRecorder recorder, DownloadLog log, Ticker ticker) {
    this.request = request;
    this.headers = headers;
    this.records = records;
    this.storeLocation = storeLocation;
    this.http = http;
    this.recorder = recorder;
    this.log = log;
    this.ticker = ticker;
  }

  /** The record this pass writes to, once it has one; -1 before. */
  long recordId() {
    return recordId;
  }

  /**
   * The unfinished download this request continues: the record of the named file, or, when the
   * name comes from the server, the newest unfinished download of the same URL into the same folder.
   */
  Optional<DownloadRecord> priorRecord() {
    if (request.file().isPresent()) {
      return records.findByTarget(request.file().get()).filter(r -> r.status() != DownloadState.COMPLETED);
    }
    return records.findUnfinished(request.uri().toString()).stream()
        .filter(r -> request.directory().equals(r.target().getParent()))
        .findFirst();
  }

  /**
   * What the probe asks for: for a resume, the start of the first unfinished segment, so that its
   * body is data this run needs (the last byte when nothing is missing, which still proves the
   * validators), from up to {@link HeldBytes#SAMPLE} bytes before it that are on disk already;
   * else the first request from byte 0.
   */
  ProbeRange probeRange(Optional<DownloadRecord> prior) {
    ProbeRange fresh = new ProbeRange(0, SegmentStreamer.FIRST_REQUEST, 0);
    if (prior.isEmpty()) {
      return fresh;
    }
    DownloadRecord r = prior.get();
    long length = r.remote().length();
    // a refreshed URL starts where the old one stopped too: the proof of the same file comes before its bytes are used
    if (!r.remote().ranges() || length <= 0) {
      return fresh;
    }
    List<SegmentRecord> segments = records.segments(r.id());
    return segments.stream().filter(s -> !s.complete())
        .min(Comparator.comparingLong(s -> s.start() + s.done()))
        .map(s -> {
          long at = s.start() + s.done();
          int held = HeldBytes.heldBefore(segments, at);
          return new ProbeRange(at - held, Math.min(s.end(), at + SegmentStreamer.FIRST_REQUEST), held);
        })
        .orElseGet(() -> {
          int held = HeldBytes.heldBefore(segments, length - 1);
          return new ProbeRange(length - 1 - held, length, held);
        });
  }

  /**
   * The bytes a resume of {@code prior} still needs, when its record tells (a ranged download of
   * the same URL with a known length): what the warm-up before the probe may count on.
   */
  OptionalLong remaining(Optional<DownloadRecord> prior) {
    if (prior.isEmpty()) {
      return OptionalLong.empty();
    }
    DownloadRecord r = prior.get();
    if (!r.remote().ranges() || r.remote().length() <= 0 || !r.url().equals(request.uri().toString())) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(records.segments(r.id()).stream()
        .mapToLong(s -> Math.max(0, s.end() - s.start() - s.done())).sum());
  }

  /**
   * A crash between the final rename and recording it, in the record (which says every byte was
   * durable) or in the queue (the record says complete, the entry does not): the file is kept.
   * Returns its length then, marking its record complete if it was not.
   */
  OptionalLong renamedBeforeCrash(Optional<DownloadRecord> record, Path target, Path partPath,
      RemoteIdentity identity) throws LocalFileException {
    if (record.isEmpty() || Files.exists(partPath) || !record.get().url().equals(request.uri().toString())) {
      return OptionalLong.empty();
    }
    DownloadRecord r = record.get();
    // a completed record: the process was killed after the rename, before the queue heard the end
    boolean recordedComplete = r.status() == DownloadState.COMPLETED;
    boolean allDone = recordedComplete || records.segments(r.id()).stream().allMatch(SegmentRecord::complete);
    try {
      if (!allDone || Validators.whyNotResumable(r.remote(), identity) != null || Files.size(target) != r.remote().length()) {
        return OptionalLong.empty();
      }
    } catch (IOException e) {
      throw new LocalFileException("cannot read " + target + ": " + RangeRequest.describe(e), e);
    }
    if (!recordedComplete) {
      records.markStatus(r.id(), DownloadState.COMPLETED, null);
    }
    return OptionalLong.of(r.remote().length());
  }

  /**
   * Resumes from the store when the server proves the file unchanged (its validators, and the
   * probe's {@code sample} of bytes on disk compared with its own); otherwise starts from zero.
   * A record of another URL (a refreshed link) resumes when {@link LinkProof} shows the new URL
   * serves the same file and is refused with {@link LinkRefusedException} when not, unless the
   * request overwrites, which starts over.
   * A completed record with its part file still there and no final file is a rename that did not
   * happen (a crash right after the last checkpoint) or that a power cut undid (renames are not
   * forced): it resumes too, with nothing left to fetch.
   */
  ResumePlan plan(Optional<DownloadRecord> record, PartFile part, boolean partExisted, Path target, RangeSource source,
      HeldBytes.ProbeSample sample) throws DownloadException, IOException {
    RemoteIdentity identity = source.identity();
    if (record.isPresent() && partExisted
        && (record.get().status() != DownloadState.COMPLETED || !Files.exists(target))) {
      DownloadRecord r = record.get();
      boolean sameUrl = r.url().equals(request.uri().toString());
      // with --overwrite another URL starts over, as asked; without, it continues only where it proves the same file
      if (sameUrl || !request.overwrite()) {
        var segments = records.segments(r.id());
        String why = sameUrl ? Validators.whyNotResumable(r.remote(), identity)
            : LinkProof.whyNot(http, source, r.remote(), records.blockSums(r.id()), headers, recorder);
        if (!sameUrl && why != null) {
          throw refused(part, r, why);
        }
        long needed = segments.stream().mapToLong(s -> s.start() + s.done()).max().orElse(0);
        if (why == null && part.size() < needed) {
          why = "the part file is shorter than the recorded progress";
        }
        if (why == null) {
          recordId = r.id();
          ResumePlan resumed = resume(r.id(), part, segments, target, identity.length());
          // validators can be stale (a server's cache): the bytes the probe began with are compared with those on disk
          why = sample.whyChanged(part, resumed.table(), log::note);
          if (why == null) {
            if (!sameUrl) {
              records.changeUrl(r.id(), request.uri().toString(), identity);
              log.note("continuing " + target + " from " + request.uri() + ", which serves the same file as " + r.url());
            }
            return resumed;
          }
          if (!sameUrl) {
            // as a failed LinkProof: the record of the old URL is left as it was
            recordId = -1;
            throw refused(part, r, why);
          }
        }
        if (!request.restartIfChanged()) {
          throw new RemoteChangedException("cannot resume " + target + ": " + why
              + "; the bytes on disk are kept (allow a restart to download it again)");
        }
        if (needed > 0) {
          // nothing recorded done is no restart (an end check that found a change noted its own)
          log.restarted(why);
        }
      }
    } else if (partExisted && part.size() > 0 && !request.overwrite()) {
      throw new LocalFileException(part.path() + " exists but " + storeLocation
          + " has no record of it (remove it or use --overwrite)");
    }
    return startFresh(part, target, identity);
  }

  private LinkRefusedException refused(PartFile part, DownloadRecord r, String why) {
    return new LinkRefusedException(part.path() + " holds a download of " + r.url() + ", and " + request.uri()
        + " cannot be shown to serve the same file: " + why + ". Nothing was spliced and the bytes on disk are kept"
        + " (start over with --overwrite, or remove the download)");
  }

  /**
   * Re-checks the finished blocks of a resumed part file against their recorded CRC32C. A block
   * whose bytes changed (a torn write, a disk that lied about a flush, someone else's write) is
   * fetched again: each segment keeps only its done prefix before the first damaged block, and the
   * record is repaired before anything else happens.
   */
  private ResumePlan resume(long id, PartFile part, List<SegmentRecord> segments, Path target, long length)
      throws IOException, LocalFileException {
    Map<Integer, Integer> recorded = records.blockSums(id);
    List<Integer> damaged = BlockSums.damaged(part, recorded, length);
    BlockSums sums;
    if (damaged.isEmpty()) {
      sums = new BlockSums(length, recorded);
    } else {
      List<SegmentRecord> trimmed = trim(segments, damaged);
      Map<Integer, Integer> valid = new HashMap<>();
      for (int k : BlockSums.complete(trimmed, length)) {
        if (recorded.containsKey(k)) {
          valid.put(k, recorded.get(k));
        }
      }
      records.repair(id, trimmed, valid);
      log.damaged(damaged.size() * BlockSums.BLOCK);
      sums = new BlockSums(length, valid);
      segments = trimmed;
    }
    SegmentTable table = SegmentTable.restore(segments, request.minSplitSize(), ticker);
    long reused = table.doneBytes();
    // the part file is sparse: its holes still need room
    requireSpace(part, target, length - reused);
    return new ResumePlan(table, id, reused, sums);
  }

  private static List<SegmentRecord> trim(List<SegmentRecord> segments, List<Integer> damaged) {
    List<SegmentRecord> trimmed = new ArrayList<>();
    for (SegmentRecord s : segments) {
      long doneTo = s.start() + s.done();
      for (int k : damaged) {
        long from = k * BlockSums.BLOCK;
        if (from < doneTo && from + BlockSums.BLOCK > s.start()) {
          doneTo = Math.max(s.start(), from);
        }
      }
      trimmed.add(new SegmentRecord(s.start(), s.end(), doneTo - s.start()));
    }
    return trimmed;
  }

  /**
   * Starts from zero. The order makes every crash point resumable: the record (nothing done) is
   * written before the part file grows, so a kill never leaves a sized part file the store does
   * not know, which the next run would have to refuse.
   */
  private ResumePlan startFresh(PartFile part, Path target, RemoteIdentity identity) throws IOException, LocalFileException {
    long length = identity.length();
    // truncate first: the blocks of an older attempt count as free space for this one
    part.reset(0);
    requireSpace(part, target, Math.max(0, length));
    SegmentTable table = SegmentTable.fresh(length, identity.ranges(), request.minSplitSize(), ticker);
    BlockSums sums = identity.ranges() && length > 0 ? new BlockSums(length, Map.of()) : null;
    recordId = records.create(request.uri().toString(), target, identity, table.snapshot());
    part.reset(length);
    return new ResumePlan(table, recordId, 0, sums);
  }

  /** Fails up front, before any byte is fetched, when the folder cannot hold what is still missing. */
  private static void requireSpace(PartFile part, Path target, long missing) throws LocalFileException {
    // statfs on the file: Files.getFileStore also reads the whole mount table to name the
    // file system, once per download (2-3 % of the CPU of a batch of small files)
    long usable = part.path().toFile().getUsableSpace();
    if (usable < missing) {
      throw new LocalFileException("not enough space for " + target + ": " + missing + " more bytes are needed, "
          + usable + " are free", null, FailureDetail.DISK_FULL);
    }
  }
}
