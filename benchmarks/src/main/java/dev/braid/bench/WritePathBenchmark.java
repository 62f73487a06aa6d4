package dev.braid.bench;

import dev.braid.core.internal.io.PartFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * The write step of the copy loop: one worker buffer written at its position with
 * {@link PartFile#write} (positional {@code FileChannel.write}) into the page cache. A heap buffer
 * (what the engine has, since HttpClient reads into a {@code byte[]}) costs the JDK's copy into its
 * temporary direct buffer; a direct one does not. Each thread writes its own 64 MiB region of one
 * shared file, as workers do. Result: microseconds per buffer; MiB/s = bufferSize / time.
 * Run with {@code -t 1} and {@code -t 4} to see whether workers serialise each other.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WritePathBenchmark {
  static final long REGION = 64L << 20;

  @Param({"16384", "65536", "131072", "262144", "1048576"})
  int bufferSize;

  @Param({"heap", "direct"})
  String kind;

  Path dir;
  PartFile part;
  final AtomicInteger regions = new AtomicInteger();

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory("braid-jmh-write");
    part = PartFile.open(dir.resolve("bench.part"));
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    part.close();
    Files.deleteIfExists(dir.resolve("bench.part"));
    Files.deleteIfExists(dir);
  }

  /** One worker: its buffer and its region of the file. */
  @State(Scope.Thread)
  public static class Worker {
    ByteBuffer buffer;
    long base;
    long offset;

    @Setup(Level.Trial)
    public void setUp(WritePathBenchmark b) {
      byte[] data = new byte[b.bufferSize];
      ThreadLocalRandom.current().nextBytes(data);
      buffer = b.kind.equals("direct") ? ByteBuffer.allocateDirect(b.bufferSize).put(data) : ByteBuffer.wrap(data);
      base = b.regions.getAndIncrement() * REGION;
    }
  }

  @Benchmark
  public int write(Worker w) throws IOException {
    w.buffer.clear();
    part.write(w.buffer, w.base + w.offset);
    w.offset = (w.offset + bufferSize) % REGION;
    return w.buffer.position();
  }
}
