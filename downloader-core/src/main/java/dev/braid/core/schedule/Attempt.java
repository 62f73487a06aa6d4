package dev.braid.core.schedule;

import dev.braid.core.Checksum;
import dev.braid.core.ConnectionChange;
import dev.braid.core.DownloadException;
import dev.braid.core.DownloadPausedException;
import dev.braid.core.DownloadRequest;
import dev.braid.core.DownloadResult;
import dev.braid.core.HttpStatusException;
import dev.braid.core.IntegrityException;
import dev.braid.core.LocalFileException;
import dev.braid.core.NetworkException;
import dev.braid.core.RemoteChangedException;
import dev.braid.core.fetch.RangeRequest;
import dev.braid.core.fetch.RemoteChanged;
import dev.braid.core.fetch.SegmentStreamer;
import dev.braid.core.fetch.TransientFailure;
import dev.braid.core.fetch.Validators;
import dev.braid.core.http.ConnectionWarmup;
import dev.braid.core.http.Exchange;
import dev.braid.core.http.Protocol;
import dev.braid.core.http.Requester;
import dev.braid.core.http.OriginHeaders;
import dev.braid.core.http.PhaseRecorder;
import dev.braid.core.io.FileNames;
import dev.braid.core.io.PartFile;
import dev.braid.core.io.PartFileLockedException;
import dev.braid.core.plan.Segment;
import dev.braid.core.plan.SegmentTable;
import dev.braid.core.probe.ProbeResult;
import dev.braid.core.probe.Prober;
import dev.braid.core.verify.BlockSums;
import dev.braid.core.verify.BlockTracker;
import dev.braid.core.verify.FileDigest;
import dev.braid.state.DownloadRecord;
import dev.braid.state.DownloadStatus;
import dev.braid.state.RemoteIdentity;
import dev.braid.state.SegmentRecord;
import dev.braid.state.Store;
import dev.braid.state.StoreException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One pass of a download, on the job's driver thread: probe, choose the target, resume or start
 * fresh, run the workers while checkpointing every interval, then finish. A remote file that
 * changes mid-way ends the pass with {@link RemoteChanged}; the job decides whether to start
 * another.
 */
final class Attempt {
  /**
   * A split cuts into a response in flight only when the part it takes would keep the owner busy
   * at least this long. What a cut wastes is what the server already pushed past the cut: little on
   * a throttled path, megabytes on a fast one, where this many seconds of throughput is far more
   * than a small file has left, so no cut happens there.
   */
  static final double CUT_SECONDS = 0.25;

  private final DownloadJob job;
  private final DownloadRequest request;
  private final Object sleeper = new Object();

  private volatile boolean halted;
  private volatile Throwable fatal;
  private volatile TransientFailure lastFailure;
  private volatile SegmentTable table;
  private volatile RemoteIdentity identity;
  /** {@code identity}'s final URL, parsed once: the driver and every worker ask about it each tick. */
  private volatile URI finalUri;
  private volatile WorkerPool pool;
  private volatile MirrorSet mirrors;
  private volatile Path target;
  private long recordId = -1;
  /** Sums of the finished blocks; null when the download cannot resume anyway (no ranges or no length). Updated by the driver only. */
  private volatile BlockSums sums;
  private long reused;
  /** The last checkpoint marked the record complete: every byte done and forced, nothing left to verify. */
  private boolean recordedComplete;
  /** Connections opening for this pass's workers while the probe is in flight; cancelled by a halt or when the pass ends. */
  private volatile ConnectionWarmup warmup = ConnectionWarmup.NONE;
  private long probeNanos;

  Attempt(DownloadJob job) {
    this.job = job;
    this.request = job.request();
  }

  DownloadResult run() throws DownloadException, RemoteChanged {
    Optional<DownloadRecord> prior = priorRecord();
    job.route().beforeProbe(request.uri());
    long[] range = prior.map(this::resumeRange).orElse(new long[] {0, SegmentStreamer.FIRST_REQUEST});
    // started before the probe, so connections open while it waits for its answer; ended with the pass
    warmup = job.warmFor(request.uri());
    if (halted) {
      // a halt that came before the warm-up was set did not see it (both fields are volatile)
      warmup.cancel();
    }
    long probeStart = System.nanoTime();
    ProbeResult probe;
    try {
      probe = probe(range[0], range[1]);
    } catch (DownloadException | RuntimeException e) {
      warmup.cancel();
      throw e;
    }
    probeNanos = System.nanoTime() - probeStart;
    Exchange first = probe.exchange();
    Path partPath = null;
    boolean partExisted = true;
    try {
      identity = probe.identity();
      finalUri = URI.create(identity.finalUrl());
      Path target = request.file().or(() -> prior.map(DownloadRecord::target)).orElseGet(() -> request.directory()
          .resolve(FileNames.choose(probe.contentDisposition(), finalUri)));
      this.target = target;
      if (request.file().isEmpty()) {
        // a folder to download into is made if missing, as wget -P and aria2c -d do; the
        // folder of an exact file name (-o) is not: a typo there should not grow a tree
        makeFolder(target.getParent());
      }
      checkFolder(target.getParent());
      partPath = target.resolveSibling(target.getFileName() + ".part");
      Optional<DownloadRecord> record = job.store().findByTarget(target);
      if (Files.exists(target) && !request.overwrite()) {
        Optional<DownloadResult> renamed = renamedBeforeCrash(record, target, partPath);
        if (renamed.isPresent()) {
          return renamed.get();
        }
        throw new LocalFileException(target + " already exists (use --overwrite to replace it)");
      }
      partExisted = Files.exists(partPath);
      try (PartFile part = openPart(partPath)) {
        plan(record, part, partExisted, target);
        boolean measurable = identity.ranges() && identity.length() - reused >= ProtocolPolicy.MEASURE_MIN
            && request.mirrors().isEmpty() && !job.throttle().limited();
        String protocolWhy = job.route().forPass(finalUri, measurable);
        if (measurable && first != null && first.protocol() != job.route().protocolFor(finalUri)) {
          // a trial of the other version: the probe's response would blur what the trial measures
          first.abort();
          first = null;
        }
        mirrors = request.mirrors().isEmpty() || !identity.ranges() || identity.length() <= 0
            ? MirrorSet.single(identity) : MirrorSet.probe(job.route(), identity, request.mirrors(), headers(), recorder());
        drive(part, first, probe.offset(), range[1], protocolWhy, measurable);
        first = null;
        return finish(part, target);
      } catch (IOException e) {
        throw new LocalFileException("cannot use " + partPath + ": " + RangeRequest.describe(e), e);
      }
    } catch (DownloadException | StoreException e) {
      DownloadException failure = e instanceof StoreException se
          ? new LocalFileException(se.getMessage(), se) : (DownloadException) e;
      recordOutcome(failure instanceof DownloadPausedException ? DownloadStatus.PAUSED : DownloadStatus.FAILED,
          failure.getMessage());
      if (!partExisted && recordId < 0) {
        // refused before anything was recorded (no space, a lock, the store): leave nothing behind
        deleteQuietly(partPath);
      }
      throw failure;
    } finally {
      warmup.cancel();
      if (first != null) {
        first.abort();
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException ignored) {
      // an empty file left behind is harmless: the next run starts it fresh
    }
  }

  /**
   * The unfinished download this request continues: the record of the named file, or, when the
   * name comes from the server, the newest unfinished download of the same URL into the same folder.
   */
  private Optional<DownloadRecord> priorRecord() {
    if (request.file().isPresent()) {
      return job.store().findByTarget(request.file().get()).filter(r -> r.status() != DownloadStatus.COMPLETED);
    }
    return job.store().findUnfinished(request.uri().toString()).stream()
        .filter(r -> request.directory().equals(r.target().getParent()))
        .findFirst();
  }

  /**
   * What the probe of a resume asks for: the start of the first unfinished segment, so that its
   * body is data this run needs rather than bytes already on disk (the last byte when nothing is
   * missing, which still proves the validators). {@code {from, to}}, to exclusive.
   */
  private long[] resumeRange(DownloadRecord r) {
    long length = r.remote().length();
    if (!r.remote().ranges() || length <= 0 || !r.url().equals(request.uri().toString())) {
      return new long[] {0, SegmentStreamer.FIRST_REQUEST};
    }
    return job.store().segments(r.id()).stream().filter(s -> !s.complete())
        .min(java.util.Comparator.comparingLong(s -> s.start() + s.done()))
        .map(s -> {
          long from = s.start() + s.done();
          return new long[] {from, Math.min(s.end(), from + SegmentStreamer.FIRST_REQUEST)};
        })
        .orElse(new long[] {length - 1, length});
  }

  private ProbeResult probe(long from, long to) throws DownloadException {
    int failures = 0;
    while (true) {
      try {
        return Prober.probe(job.route(), request.uri(), headers(), recorder(), from, to);
      } catch (TransientFailure f) {
        failures++;
        lastFailure = f;
        if (failures > settings().maxRetries()) {
          throw publicError(f);
        }
        recorder().retry();
        sleep(Backoff.delay(settings(), failures, f.retryAfter()));
        if (job.pauseRequested()) {
          throw new DownloadPausedException("paused before the download started");
        }
        job.checkDeadline();
      }
    }
  }

  private static void makeFolder(Path dir) throws LocalFileException {
    if (Files.isDirectory(dir)) {
      // the usual case, one stat: createDirectories would try mkdir and throw and catch EEXIST
      return;
    }
    try {
      Files.createDirectories(dir);
    } catch (FileAlreadyExistsException e) {
      // a file stands where the folder should be: checkFolder says so
    } catch (IOException e) {
      throw new LocalFileException("cannot create the folder " + dir + ": " + e.getMessage(), e);
    }
  }

  private static void checkFolder(Path dir) throws LocalFileException {
    if (!Files.isDirectory(dir)) {
      throw new LocalFileException(Files.exists(dir) ? dir + " is not a folder" : "the folder " + dir + " does not exist");
    }
    if (!Files.isWritable(dir)) {
      throw new LocalFileException("the folder " + dir + " is not writable");
    }
  }

  /** A crash between the final rename and recording it: the record says every byte was durable. */
  private Optional<DownloadResult> renamedBeforeCrash(Optional<DownloadRecord> record, Path target, Path partPath)
      throws LocalFileException {
    if (record.isEmpty() || record.get().status() == DownloadStatus.COMPLETED || Files.exists(partPath)
        || !record.get().url().equals(request.uri().toString())) {
      return Optional.empty();
    }
    DownloadRecord r = record.get();
    boolean allDone = job.store().segments(r.id()).stream().allMatch(SegmentRecord::complete);
    try {
      if (!allDone || Validators.whyNotResumable(r.remote(), identity) != null || Files.size(target) != r.remote().length()) {
        return Optional.empty();
      }
    } catch (IOException e) {
      throw new LocalFileException("cannot read " + target + ": " + RangeRequest.describe(e), e);
    }
    job.store().markStatus(r.id(), DownloadStatus.COMPLETED, null);
    return Optional.of(new DownloadResult(target, r.remote().length(), 0, r.remote().length(), job.elapsed(), job.restarts(),
        job.metrics()));
  }

  private static PartFile openPart(Path partPath) throws LocalFileException {
    try {
      return PartFile.open(partPath);
    } catch (PartFileLockedException e) {
      throw new LocalFileException(e.getMessage() + " (another braid is running it)", e);
    } catch (IOException e) {
      throw new LocalFileException("cannot open " + partPath + ": " + RangeRequest.describe(e), e);
    }
  }

  /**
   * Resumes from the store when the server proves the file unchanged; otherwise starts from zero.
   * A completed record with its part file still there and no final file is a rename that did not
   * happen (a crash right after the last checkpoint) or that a power cut undid (renames are not
   * forced): it resumes too, with nothing left to fetch.
   */
  private void plan(Optional<DownloadRecord> record, PartFile part, boolean partExisted, Path target)
      throws DownloadException, IOException {
    if (record.isPresent() && partExisted
        && (record.get().status() != DownloadStatus.COMPLETED || !Files.exists(target))) {
      DownloadRecord r = record.get();
      if (!r.url().equals(request.uri().toString()) && !request.overwrite()) {
        throw new LocalFileException(part.path() + " holds a download of " + r.url() + " (use --overwrite to replace it)");
      }
      if (r.url().equals(request.uri().toString())) {
        var segments = job.store().segments(r.id());
        String why = Validators.whyNotResumable(r.remote(), identity);
        long needed = segments.stream().mapToLong(s -> s.start() + s.done()).max().orElse(0);
        if (why == null && part.size() < needed) {
          why = "the part file is shorter than the recorded progress";
        }
        if (why == null) {
          segments = recheck(r.id(), part, segments);
          table = SegmentTable.restore(segments, request.minSplitSize());
          recordId = r.id();
          reused = table.doneBytes();
          // the part file is sparse: its holes still need room
          requireSpace(part, target, identity.length() - reused);
          return;
        }
        if (!request.restartIfChanged()) {
          throw new RemoteChangedException("cannot resume " + target + ": " + why
              + "; the bytes on disk are kept (allow a restart to download it again)");
        }
        job.noteRestart(why);
      }
    } else if (partExisted && part.size() > 0 && !request.overwrite()) {
      throw new LocalFileException(part.path() + " exists but " + job.store().file()
          + " has no record of it (remove it or use --overwrite)");
    }
    startFresh(part, target);
  }

  /**
   * Re-checks the finished blocks of a resumed part file against their recorded CRC32C. A block
   * whose bytes changed (a torn write, a disk that lied about a flush, someone else's write) is
   * fetched again: each segment keeps only its done prefix before the first damaged block, and the
   * record is repaired before anything else happens. Returns the segments to resume from.
   */
  private List<SegmentRecord> recheck(long id, PartFile part, List<SegmentRecord> segments) throws IOException {
    long length = identity.length();
    Map<Integer, Integer> recorded = job.store().blockSums(id);
    List<Integer> damaged = BlockSums.damaged(part, recorded, length);
    if (damaged.isEmpty()) {
      sums = new BlockSums(length, recorded);
      return segments;
    }
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
    Map<Integer, Integer> valid = new HashMap<>();
    for (int k : BlockSums.complete(trimmed, length)) {
      if (recorded.containsKey(k)) {
        valid.put(k, recorded.get(k));
      }
    }
    job.store().repair(id, trimmed, valid);
    job.noteDamaged(damaged.size() * BlockSums.BLOCK);
    sums = new BlockSums(length, valid);
    return trimmed;
  }

  /**
   * Starts from zero. The order makes every crash point resumable: the record (nothing done) is
   * written before the part file grows, so a kill never leaves a sized part file the store does
   * not know, which the next run would have to refuse.
   */
  private void startFresh(PartFile part, Path target) throws IOException, LocalFileException {
    long length = identity.length();
    // truncate first: the blocks of an older attempt count as free space for this one
    part.reset(0);
    requireSpace(part, target, Math.max(0, length));
    table = SegmentTable.fresh(length, identity.ranges(), request.minSplitSize());
    sums = identity.ranges() && length > 0 ? new BlockSums(length, Map.of()) : null;
    recordId = job.store().create(request.uri().toString(), target, identity, table.snapshot());
    part.reset(length);
  }

  /** Fails up front, before any byte is fetched, when the folder cannot hold what is still missing. */
  private static void requireSpace(PartFile part, Path target, long missing) throws IOException, LocalFileException {
    // statfs on the file: Files.getFileStore also reads the whole mount table to name the
    // file system, once per download (2-3 % of the CPU of a batch of small files)
    long usable = part.path().toFile().getUsableSpace();
    if (usable < missing) {
      throw new LocalFileException("not enough space for " + target + ": " + missing + " more bytes are needed, "
          + usable + " are free");
    }
  }

  /**
   * Runs the workers until none is left, sampling speed, steering the connection count and
   * checkpointing on the way. The first worker streams the probe's body when the plan still
   * needs the bytes at its offset; otherwise the probe's exchange is aborted. Either way the
   * caller no longer owns it. A {@code measurable} pass that completes reports its throughput
   * to the download's {@link ProtocolRoute}.
   */
  private void drive(PartFile part, Exchange first, long firstOffset, long probeEnd, String protocolWhy,
      boolean measurable) throws LocalFileException {
    long now = System.nanoTime();
    long start = now;
    long startBytes = job.fetched().sum();
    pool = new WorkerPool(this, job, part, job.controllerFor(identity, now, protocolWhy), now);
    Segment firstSegment = first == null ? null : table.assignAt(firstOffset);
    if (firstSegment != null) {
      // the probe is the first segment's first request: a server without ranges sends everything
      table.requestEnd(firstSegment, identity.ranges() ? probeEnd - firstOffset : Long.MAX_VALUE);
    }
    pool.start(first, firstSegment);
    awaitWarmup();
    pool.topUp();
    long interval = settings().checkpointInterval().toNanos();
    long next = now + interval;
    boolean interrupted = false;
    try {
      while (pool.tick(System.nanoTime())) {
        try {
          pool.await(200);
        } catch (InterruptedException e) {
          // the driver thread is ours alone; an interrupt means stop as a pause would
          interrupted = true;
          halt(null);
        }
        now = System.nanoTime();
        if (job.deadlinePassed() && fatal == null) {
          halt(job.deadlineError());
        }
        job.meter().sample(now, job.fetched().sum());
        if (measurable) {
          String stopped = job.route().judgeTrial(finalUri, job.fetched().sum() - startBytes, now - start);
          if (stopped != null) {
            job.noteChange(new ConnectionChange(job.elapsed(), pool.target(), pool.target(), stopped));
          }
        }
        if (now >= next) {
          checkpoint(part, false);
          next = now + interval;
        }
      }
    } catch (LocalFileException | RuntimeException e) {
      // a checkpoint failed: stop the workers before the part file closes under them
      halt(e);
      awaitWorkers();
      throw e;
    } finally {
      job.remember(identity, pool);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (measurable && fatal == null && table.complete()) {
      job.route().measured(finalUri, job.fetched().sum() - startBytes, System.nanoTime() - start);
    }
    // with every byte done and no checksum to verify, the last checkpoint also marks the record
    // complete, before the rename: one transaction fewer per file. A crash between them leaves a
    // complete record with its part file, which plan() resumes with nothing to fetch
    recordedComplete = fatal == null && table.complete() && request.checksum().isEmpty();
    checkpoint(part, recordedComplete);
  }

  /**
   * Before the other workers send their first requests: lets connections still warming finish, so
   * those requests lease them rather than open more beside them. At most as long as the probe
   * took: a connection of a worker's own, opened now, would not be ready sooner than one that
   * began with the probe and is still not ready after that long. Without use for more than one
   * connection, the warm-up stops here.
   */
  private void awaitWarmup() {
    if (pool.target() <= 1 || !table.hasWork(cutMin())) {
      warmup.cancel();
      return;
    }
    warmup.awaitSettled(Duration.ofNanos(probeNanos));
  }

  private void awaitWorkers() {
    boolean interrupted = false;
    while (pool.tick(System.nanoTime())) {
      try {
        pool.await(200);
      } catch (InterruptedException again) {
        // keep waiting: returning while workers still write would release the part file under them
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private DownloadResult finish(PartFile part, Path target) throws DownloadException, RemoteChanged {
    Throwable cause = fatal;
    if (cause instanceof RemoteChanged rc) {
      throw rc;
    }
    if (cause instanceof DownloadException de) {
      throw de;
    }
    if (cause != null) {
      throw new IllegalStateException("a worker failed", cause);
    }
    if (!table.complete()) {
      if (job.pauseRequested()) {
        throw new DownloadPausedException("paused at " + table.doneBytes() + " bytes; run again to resume");
      }
      TransientFailure f = lastFailure;
      throw f == null ? new NetworkException("the download stopped before the end") : publicError(f);
    }
    if (request.checksum().isPresent()) {
      verify(part, request.checksum().get());
    }
    try {
      // drive's last checkpoint forced every byte before recording them; the rename is not
      // forced: a power cut that undoes it leaves a complete part file, which plan() resumes
      part.commitTo(target, request.overwrite());
    } catch (IOException e) {
      throw new LocalFileException("cannot rename " + part.path() + " to " + target + ": " + RangeRequest.describe(e), e);
    }
    if (!recordedComplete) {
      job.store().markStatus(recordId, DownloadStatus.COMPLETED, null);
    }
    long length = table.doneBytes();
    return new DownloadResult(target, length, job.fetched().sum(), reused, job.elapsed(), job.restarts(), job.metrics());
  }

  /**
   * Checks the whole part file against the expected digest before it gets its final name. On a
   * mismatch the part file stays for inspection, and its record starts from zero, so running the
   * download again fetches it afresh rather than trusting the same bytes.
   */
  private void verify(PartFile part, Checksum expected) throws DownloadException {
    String actual;
    try {
      part.force();
      actual = FileDigest.hex(part.path(), expected.algorithm());
    } catch (IOException e) {
      throw new LocalFileException("cannot read " + part.path() + " to verify it: " + RangeRequest.describe(e), e);
    }
    if (!actual.equals(expected.hex())) {
      job.store().repair(recordId, SegmentTable.fresh(identity.length(), identity.ranges(), request.minSplitSize()).snapshot(),
          Map.of());
      throw new IntegrityException(expected.algorithm() + " checksum mismatch: expected " + expected.hex() + ", got "
          + actual + "; the bytes are kept in " + part.path());
    }
  }

  /**
   * Forces the data, then records the progress snapshot taken before the force (invariant 1),
   * and with {@code complete} marks the record complete in the same transaction.
   */
  private void checkpoint(PartFile part, boolean complete) throws LocalFileException {
    var snapshot = table.snapshot();
    Map<Integer, Integer> finished;
    try {
      part.force();
      finished = sums == null ? Map.of() : sums.update(part, snapshot);
    } catch (IOException e) {
      throw new LocalFileException("cannot flush " + part.path() + ": " + RangeRequest.describe(e), e);
    }
    if (complete) {
      job.store().complete(recordId, snapshot, finished);
    } else {
      job.store().checkpoint(recordId, snapshot, finished);
    }
  }

  private void recordOutcome(DownloadStatus status, String message) {
    if (recordId >= 0) {
      try {
        job.store().markStatus(recordId, status, message);
      } catch (StoreException ignored) {
        // the failure being reported matters more; the record stays resumable as ACTIVE
      }
    }
  }

  private static DownloadException publicError(TransientFailure f) {
    return switch (f.kind()) {
      case NETWORK -> new NetworkException(f.getMessage(), f);
      case HTTP_STATUS -> new HttpStatusException(f.status(), f.getMessage());
      case PROTOCOL -> new IntegrityException("the server's responses failed validation: " + f.getMessage(), f);
    };
  }

  // ---- what workers see

  SegmentTable table() {
    return table;
  }

  RemoteIdentity identity() {
    return identity;
  }

  /** The first request of a new connection: see {@link SegmentStreamer#firstRequestSize}. */
  long firstRequestSize() {
    WorkerPool p = pool;
    return SegmentStreamer.firstRequestSize(identity.length(), p == null ? 1 : p.target());
  }

  /** A new connection's tracker of whole-block sums, or null when this download keeps none. */
  BlockTracker blockTracker() {
    BlockSums s = sums;
    return s == null ? null : s.tracker();
  }

  MirrorSet mirrors() {
    return mirrors;
  }

  /** The final file, once chosen. */
  Path target() {
    return target;
  }

  Requester http() {
    return job.route();
  }

  OriginHeaders headers() {
    return job.originHeaders();
  }

  PhaseRecorder recorder() {
    return job.recorder();
  }

  EngineSettings settings() {
    return job.settings();
  }

  boolean halted() {
    return halted || job.pauseRequested();
  }

  /** Stops every worker: aborts their exchanges and wakes those waiting to retry. */
  void halt(Throwable cause) {
    if (cause != null && fatal == null) {
      fatal = cause;
    }
    halted = true;
    warmup.cancel();
    WorkerPool p = pool;
    if (p != null) {
      p.abortAll();
    }
    wake();
  }

  /** Wakes workers waiting to retry so they notice a halt or a retirement. */
  void wake() {
    synchronized (sleeper) {
      sleeper.notifyAll();
    }
  }

  /**
   * The least a split that cuts into a request in flight must take: {@link #CUT_SECONDS} of one
   * connection's throughput (the median of finished requests, else the download's rate per busy
   * connection).
   * Before anything is measured, no cut: on a fast path the cut response's bytes already in
   * flight (megabytes) would be thrown away; measured, a batch of 8 MiB files from a loopback
   * server was served 1.2-1.3x its size with cuts at an unknown rate.
   * Under a rate limit, no cut either: the server fills the socket buffers of a connection we
   * read slowly on purpose, so a cut threw away megabytes (a 3 MiB file at 1 MiB/s on 4
   * connections was served 1.43x its size, 1.95x with tail steals), and a connection left alone
   * gets the others' share of the limit anyway. Over HTTP/2 neither: every range is a stream of
   * the same connection, so a second stream adds no bandwidth, and a cut stream either delivers
   * its remainder anyway or, cancelled, closes the connection under all the others.
   */
  long cutMin() {
    WorkerPool p = pool;
    if (p == null || job.throttle().limited() || overHttp2()) {
      return SegmentTable.NO_CUT;
    }
    double perConnection = p.typicalConnectionRate();
    if (perConnection <= 0) {
      perConnection = job.meter().bytesPerSecond() / Math.max(1, p.busy());
    }
    return perConnection > 0 ? (long) (perConnection * CUT_SECONDS) : SegmentTable.NO_CUT;
  }

  /** Whether this pass's ranges are streams of one HTTP/2 connection (known once the probe answered). */
  boolean overHttp2() {
    URI u = finalUri;
    return u != null && job.route().protocolFor(u) == Protocol.HTTP_2;
  }

  /** Connections streaming right now. */
  int connections() {
    WorkerPool p = pool;
    return p == null ? 0 : p.busy();
  }

  void noteFailure(TransientFailure f) {
    lastFailure = f;
  }

  /** Waits before a retry; returns early when halted. */
  void sleep(Duration d) {
    sleep(d, () -> false);
  }

  /** Waits before a retry; returns early when halted or when {@code stop} turns true (checked on {@link #wake()}). */
  void sleep(Duration d, java.util.function.BooleanSupplier stop) {
    long deadline = System.nanoTime() + d.toNanos();
    synchronized (sleeper) {
      long left;
      while (!halted() && !stop.getAsBoolean() && (left = deadline - System.nanoTime()) > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(sleeper, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
