package dev.braid.cli.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The answers the server owes its client: each request read (a message with a method and an id)
 * is owed an answer (a message with the id and a result or an error) until it is written, or the
 * client cancels it ({@code notifications/cancelled}: the protocol sends no answer then). The
 * SDK's stdio transport drops every answer not yet written once its input ends, so the end of the
 * input is held back here ({@link #input}) until none is owed: a client that sends its last
 * requests and closes the pipe (a script's {@code printf ... | braid mcp}) still reads their answers.
 *
 * <p>Threads: the SDK's reading thread counts requests and waits at the end; its writing thread
 * counts answers and wakes it. The ids owed are guarded by this object's monitor.
 */
final class AnswerLedger {
  private final ObjectMapper json;
  /** The ids of the requests owed an answer, as their JSON text (an id is a number or a string). */
  private final Set<String> owed = new HashSet<>();

  AnswerLedger(ObjectMapper json) {
    this.json = json;
  }

  /**
   * {@return {@code in}, counting the requests it carries; at its end it waits until every answer
   * is written (at most {@code drain}), then calls {@code ended}, then tells the end}
   */
  InputStream input(InputStream in, Duration drain, Runnable ended) {
    Lines lines = new Lines(this::read);
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n;
        try {
          n = super.read(buffer, offset, length);
        } catch (IOException e) {
          ended.run();
          throw e;
        }
        if (n < 0) {
          awaitNoneOwed(drain);
          ended.run();
        } else {
          lines.take(buffer, offset, n);
        }
        return n;
      }
    };
  }

  /** {@return {@code out}, counting the answers written to it once flushed} */
  OutputStream output(OutputStream out) {
    List<String> unflushed = new ArrayList<>();
    Lines lines = new Lines(line -> {
      JsonNode m = parse(line);
      if (!m.has("method") && m.has("id") && (m.has("result") || m.has("error"))) {
        unflushed.add(m.get("id").toString());
      }
    });
    // the SDK's one writing thread uses it, under its lock: unflushed needs no other guard
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] buffer, int offset, int length) throws IOException {
        out.write(buffer, offset, length);
        lines.take(buffer, offset, length);
      }

      @Override
      public void flush() throws IOException {
        out.flush();
        settled(unflushed);
        unflushed.clear();
      }
    };
  }

  private void read(String line) {
    JsonNode m = parse(line);
    if (m.hasNonNull("method") && m.has("id")) {
      synchronized (this) {
        owed.add(m.get("id").toString());
      }
    } else if ("notifications/cancelled".equals(m.path("method").asText()) && m.path("params").has("requestId")) {
      settled(List.of(m.path("params").get("requestId").toString()));
    }
  }

  private synchronized void settled(List<String> ids) {
    if (owed.removeAll(ids)) {
      notifyAll();
    }
  }

  /** Waits until no answer is owed, at most {@code drain}; an interrupt ends the wait. */
  private synchronized void awaitNoneOwed(Duration drain) {
    long deadline = System.nanoTime() + drain.toNanos();
    try {
      while (!owed.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        wait(Math.max(1, left / 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A message's tree; a line that is no JSON object (the SDK refuses it) counts for nothing. */
  private JsonNode parse(String line) {
    try {
      JsonNode m = json.readTree(line);
      return m == null ? json.nullNode() : m;
    } catch (IOException e) {
      return json.nullNode();
    }
  }
}
