package dev.braid.bench;

import dev.braid.state.Store;
import dev.braid.store.RemoteIdentity;
import dev.braid.store.SegmentRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The store's side of a checkpoint: one SQLite transaction replacing a download's segment rows
 * ({@link Store#checkpoint}), as the driver thread does every 0.5 s. The data force that precedes
 * it is disk-bound and not measured here. Result: microseconds per checkpoint.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CheckpointBenchmark {
  @Param({"1", "16", "64"})
  int segments;

  Path dir;
  Store store;
  long id;
  List<SegmentRecord> rows;
  long done;

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory("braid-jmh-store");
    store = Store.open(dir.resolve("state.db"));
    long length = 1L << 30;
    rows = rows(length, 0);
    id = store.create("http://127.0.0.1/bench.bin", dir.resolve("bench.bin"),
        new RemoteIdentity("http://127.0.0.1/bench.bin", length, "\"bench\"", null, true), rows);
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    store.close();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private List<SegmentRecord> rows(long length, long doneEach) {
    List<SegmentRecord> list = new ArrayList<>(segments);
    long size = length / segments;
    for (int i = 0; i < segments; i++) {
      list.add(new SegmentRecord(i * size, (i + 1) * size, Math.min(doneEach, size)));
    }
    return list;
  }

  @Benchmark
  public void checkpoint() {
    done = (done + 4096) % (1L << 20);
    store.checkpoint(id, rows(1L << 30, done));
  }
}
