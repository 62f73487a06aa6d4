package dev.braid.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;

/**
 * A download read in order as it arrives, made by {@link Braid#stream}: the usual adaptive
 * connections fetch the file from its front ({@link DownloadRequestBuilder#sequential}), and their
 * bytes wait in a bounded reorder window (a few tens of MiB, whatever the file's size) until every
 * byte before them is there. Nothing is written to disk and nothing of the download is recorded
 * in the state database (what the engine learns of the host, as its connection limit, is kept as
 * after any download): a stream cannot be resumed, and closing it before the end drops the download.
 *
 * <p>A request's checksum and piece hashes are still checked, on the bytes as they pass; a
 * mismatch is told only after those bytes were read: {@link #read} then throws an
 * {@link IOException} whose cause is the {@link IntegrityException}. Any failure of the download
 * is thrown so, with the {@link DownloadException} as the cause, once the bytes before it were read.
 *
 * <p>One thread reads; {@link #close} may come from any thread (a Ctrl-C handler), and makes a
 * blocked read throw. A reader slower than the download holds the connections back (TCP's flow
 * control), never more memory.
 */
public interface DownloadStream extends ReadableByteChannel {
  /**
   * Reads the next bytes of the file in order into {@code dst}, blocking until some have arrived.
   *
   * @param dst where the bytes go
   * @return how many were read, or -1 after the last byte, once every check passed
   * @throws IOException the download's failure (its cause a {@link DownloadException}), or a closed stream
   */
  @Override
  int read(ByteBuffer dst) throws IOException;

  /** {@return this stream as an {@link InputStream}; closing either closes both} */
  default InputStream inputStream() {
    return Channels.newInputStream(this);
  }

  /** {@return how far the download is: bytes fetched, speed, connections (not how much was read)} */
  Progress progress();

  /** {@return the most bytes the reorder window held at once so far: what the stream costs in memory beyond its buffers} */
  long windowPeak();

  /** {@return the reorder window's size in bytes, fixed once the server answered (0 before)} */
  int windowSize();

  /**
   * Stops the download, if it is still running, and waits until its connections are closed. A
   * read blocked in another thread throws.
   */
  @Override
  void close();
}
