package dev.braid.cli;

import java.io.PrintStream;

/**
 * The stream every line of Braid's output goes through (this process's standard streams, set by
 * {@link Main#main}, and a daemon's relay to its client): it drops the characters a terminal acts
 * on, so that text from outside (a Metalink's, a server's name or error, a note) can never move
 * the cursor, set the window title, write to the clipboard or reorder a line. Control characters
 * (C0 with ESC, DEL, C1 with CSI) go, but tab, newline and carriage return (the live progress
 * line's), and so do format characters (bidi overrides) and line separators. Braid's own output
 * uses no escape sequence; picocli's coloured help, which does, is given the raw streams.
 *
 * <p>Text is cleaned where it is still characters (the {@code print} and {@code println} of
 * strings, objects and chars; {@code format}, {@code printf} and {@code append} reach them through
 * {@code PrintStream}'s own code), since C1 and format characters are several bytes in UTF-8; what
 * arrives as bytes (numbers, line ends, raw writes) loses its C0 controls and DEL.
 */
final class TerminalStream extends PrintStream {
  private final PrintStream target;

  private TerminalStream(PrintStream target) {
    super(target, false);
    this.target = target;
  }

  /** {@code stream} with its output cleaned; itself if it is cleaned already. */
  static PrintStream over(PrintStream stream) {
    return stream instanceof TerminalStream ? stream : new TerminalStream(stream);
  }

  /** The stream under {@code stream}'s cleaning, for output that is Braid's own escape sequences. */
  static PrintStream raw(PrintStream stream) {
    return stream instanceof TerminalStream t ? t.target : stream;
  }

  /** {@code text} without the characters a terminal would act on. */
  static String clean(String text) {
    int bad = 0;
    while (bad < text.length() && !dropped(text.charAt(bad))) {
      bad++;
    }
    if (bad == text.length()) {
      return text;
    }
    StringBuilder b = new StringBuilder(text.length()).append(text, 0, bad);
    for (int i = bad; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!dropped(c)) {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static boolean dropped(char c) {
    if (c == '\n' || c == '\r' || c == '\t') {
      return false;
    }
    // every code point these types hold is in the basic plane: a char test is exact
    int type = Character.getType(c);
    return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR;
  }

  /** A byte a terminal acts on in any ASCII-based encoding: C0 but tab, newline and return, and DEL. */
  private static boolean droppedByte(int b) {
    return (b < 0x20 && b != '\n' && b != '\r' && b != '\t') || b == 0x7f;
  }

  @Override
  public void write(int b) {
    if (!droppedByte(b & 0xff)) {
      target.write(b);
    }
  }

  @Override
  public void write(byte[] buf, int off, int len) {
    byte[] kept = new byte[len];
    int n = 0;
    for (int i = off; i < off + len; i++) {
      if (!droppedByte(buf[i] & 0xff)) {
        kept[n++] = buf[i];
      }
    }
    target.write(kept, 0, n);
  }

  @Override
  public void print(String s) {
    target.print(clean(String.valueOf(s)));
  }

  @Override
  public void print(Object o) {
    print(String.valueOf(o));
  }

  @Override
  public void print(char[] s) {
    print(new String(s));
  }

  @Override
  public void print(char c) {
    print(String.valueOf(c));
  }

  @Override
  public void println(String s) {
    target.println(clean(String.valueOf(s)));
  }

  @Override
  public void println(Object o) {
    println(String.valueOf(o));
  }

  @Override
  public void println(char[] s) {
    println(new String(s));
  }

  @Override
  public void println(char c) {
    println(String.valueOf(c));
  }
}
