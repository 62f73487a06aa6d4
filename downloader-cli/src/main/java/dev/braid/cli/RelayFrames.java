package dev.braid.cli;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The frames of {@link CommandRelay}'s socket. A client opens with one {@link Hello}; then each side
 * sends frames of a type byte and, for output, a length and its bytes: the daemon {@link #OUT},
 * {@link #ERR}, and last {@link #EXIT} with the exit code or {@link #LOCAL} (run it yourself); the
 * client {@link #INTERRUPT} on Ctrl-C. Binary, not JSON: the client starts without a JSON library.
 */
final class RelayFrames {
  /** The first bytes of a hello: a client of another protocol or version is told apart at once. */
  static final int MAGIC = 0x42524c32; // "BRL2": no secret in the hello since the socket names its peer
  static final byte OUT = 'O';
  static final byte ERR = 'E';
  static final byte EXIT = 'X';
  static final byte LOCAL = 'L';
  static final byte INTERRUPT = 'I';
  /** Bounds on what a hello may carry: a longer string or more of them is a broken or hostile peer. */
  static final int MAX_STRING_BYTES = 1 << 20;
  static final int MAX_ARGUMENTS = 100_000;

  private RelayFrames() {}

  /**
   * What a client sends first: the state database it found the daemon by, its working
   * directory, its terminal, the variables that pick a command's default files, and the command line.
   */
  record Hello(String stateAnchor, String cwd, boolean console, int columns, List<String> environment,
      List<String> args) {
    void write(DataOutputStream out) throws IOException {
      out.writeInt(MAGIC);
      writeString(out, stateAnchor);
      writeString(out, cwd);
      out.writeBoolean(console);
      out.writeInt(columns);
      writeStrings(out, environment);
      writeStrings(out, args);
      out.flush();
    }

    static Hello read(DataInputStream in) throws IOException {
      if (in.readInt() != MAGIC) {
        throw new IOException("not a braid relay client");
      }
      return new Hello(readString(in), readString(in), in.readBoolean(), in.readInt(), readStrings(in), readStrings(in));
    }
  }

  private static void writeStrings(DataOutputStream out, List<String> values) throws IOException {
    out.writeInt(values.size());
    for (String v : values) {
      writeString(out, v);
    }
  }

  private static List<String> readStrings(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_ARGUMENTS) {
      throw new IOException("a relay hello with " + n + " strings");
    }
    List<String> values = new ArrayList<>(Math.min(n, 64));
    for (int i = 0; i < n; i++) {
      values.add(readString(in));
    }
    return values;
  }

  /** A string as its UTF-8 length and bytes: DataOutputStream's writeUTF stops at 64 KiB. */
  private static void writeString(DataOutputStream out, String value) throws IOException {
    byte[] b = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readString(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_STRING_BYTES) {
      throw new IOException("a relay string of " + n + " bytes");
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  /**
   * The channel as a stream. Not {@code Channels.newInputStream}: its reads hold the channel's
   * blocking lock, so that a write from another thread (the client's interrupt, the daemon's
   * output) would wait for a read that may never end.
   */
  static InputStream input(SocketChannel channel) {
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
          return 0;
        }
        return channel.read(ByteBuffer.wrap(b, off, len));
      }
    };
  }

  /** The channel as a stream, writing all it is given (see {@link #input}). */
  static OutputStream output(SocketChannel channel) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b, off, len);
        while (buf.hasRemaining()) {
          channel.write(buf);
        }
      }
    };
  }

  /** Reads a frame's type, or -1 at the end of the stream. */
  static int readType(DataInputStream in) throws IOException {
    try {
      return in.readUnsignedByte();
    } catch (EOFException end) {
      return -1;
    }
  }
}
