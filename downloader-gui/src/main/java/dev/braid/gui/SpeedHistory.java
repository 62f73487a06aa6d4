package dev.braid.gui;

/**
 * The throughput of the last few minutes, one sample a second, in a fixed ring: the speed graph's
 * data. Memory is bounded per download whatever the run time, which matters with 500 rows.
 */
final class SpeedHistory {
  private final double[] samples;
  private int next;
  private int size;

  SpeedHistory(int seconds) {
    if (seconds < 2) {
      throw new IllegalArgumentException("a graph needs at least two samples");
    }
    this.samples = new double[seconds];
  }

  void add(double bytesPerSecond) {
    samples[next] = Math.max(0, bytesPerSecond);
    next = (next + 1) % samples.length;
    size = Math.min(size + 1, samples.length);
  }

  int capacity() {
    return samples.length;
  }

  int size() {
    return size;
  }

  /** The samples, oldest first. */
  double[] values() {
    double[] out = new double[size];
    int first = (next - size + samples.length) % samples.length;
    for (int i = 0; i < size; i++) {
      out[i] = samples[(first + i) % samples.length];
    }
    return out;
  }

  double max() {
    double m = 0;
    for (int i = 0; i < size; i++) {
      m = Math.max(m, samples[i]);
    }
    return m;
  }
}
