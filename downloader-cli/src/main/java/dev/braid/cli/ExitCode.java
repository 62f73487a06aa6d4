package dev.braid.cli;

import dev.braid.core.DownloadException;
import dev.braid.core.DownloadFailure;
import dev.braid.core.DownloadPausedException;
import dev.braid.core.FailureKind;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.UsageMessageSpec;

/** The documented exit codes of {@code braid} (README.md lists them); one per kind of failure. */
final class ExitCode {
  static final int OK = 0;
  static final int INTERNAL = 1;
  static final int USAGE = 2;
  static final int NETWORK = 3;
  static final int HTTP_STATUS = 4;
  static final int REMOTE_CHANGED = 5;
  static final int LOCAL_IO = 6;
  static final int INTEGRITY = 7;
  static final int REMOVED = 8;
  /** {@code braid daemon}: another daemon already runs the engine of this state database. */
  static final int ENGINE_RUNNING = 9;
  static final int LINK_REFUSED = 10;
  /** A Metalink file that is malformed, unsafe (a file name leaving the folder, a DOCTYPE) or unsupported (Metalink 3). */
  static final int METALINK = 11;
  /**
   * {@code braid daemon}: a thread of the engine or the RPC died, or memory ran out; the daemon
   * ended itself rather than limp on ({@link DaemonFailure}). EX_SOFTWARE of sysexits.h.
   */
  static final int ENGINE_FAILED = 70;
  static final int INTERRUPTED = 130;
  /**
   * {@code -o -}: the reader of standard output went away (EPIPE: {@code | head -c N}); the download
   * stopped quietly. What a shell reports for a process a SIGPIPE ended (128 + 13).
   */
  static final int PIPE_CLOSED = 141;
  /** Not returned by braid: the JVM's own status after SIGTERM, once the shutdown hook has saved progress. */
  static final int TERMINATED = 143;

  private ExitCode() {}

  /**
   * Lists the codes in a command's help, one per line (picocli's exit code list, which its man page
   * generator renders as the EXIT STATUS section too).
   */
  static void describeIn(UsageMessageSpec usage) {
    Map<String, String> codes = new LinkedHashMap<>();
    put(codes, OK, "all downloads completed");
    put(codes, INTERNAL, "internal error (a bug: --debug shows the stack trace)");
    put(codes, USAGE, "usage: a bad option, argument or request");
    put(codes, NETWORK, "network: connect, TLS, timeouts, retries or --deadline exhausted");
    put(codes, HTTP_STATUS, "HTTP error status, or a redirect refused");
    put(codes, REMOTE_CHANGED, "remote file changed (with --no-restart)");
    put(codes, LOCAL_IO, "local file, state database or RPC port");
    put(codes, INTEGRITY, "integrity: a checksum mismatch, or ranges other than those asked for");
    put(codes, REMOVED, "removed from the queue (braid remove) while it ran");
    put(codes, ENGINE_RUNNING, "braid daemon: another daemon runs this state database");
    put(codes, LINK_REFUSED, "a new URL does not serve the partial file's bytes (nothing spliced)");
    put(codes, METALINK, "a Metalink that is malformed, unsafe (a name leaving the folder, a DOCTYPE) or Metalink 3");
    put(codes, ENGINE_FAILED, "braid daemon: a thread of it died or memory ran out; restart it, the queue resumes");
    put(codes, INTERRUPTED, "interrupted: Ctrl-C, or paused by another braid (progress saved)");
    put(codes, PIPE_CLOSED, "-o -: standard output was closed by its reader (| head); the download stopped quietly");
    put(codes, TERMINATED, "terminated by SIGTERM (progress saved)");
    usage.exitCodeListHeading("%nExit codes:%n").exitCodeList(codes);
  }

  private static void put(Map<String, String> codes, int code, String meaning) {
    codes.put(String.valueOf(code), meaning);
  }

  static int of(DownloadException e) {
    return e instanceof DownloadPausedException ? INTERRUPTED : of(DownloadFailure.of(e).kind());
  }

  /**
   * The code of a refused client call: its engine's failure's when the cause carries one (an
   * in-process store or file), else its reason's (a daemon that refused or went away: the RPC port).
   */
  static int of(dev.braid.client.ClientException e) {
    if (e.getCause() instanceof DownloadException de) {
      return of(de);
    }
    return switch (e.reason()) {
      case INVALID, NOT_FOUND -> USAGE;
      case UNAUTHORIZED, UNREACHABLE, FAILED -> LOCAL_IO;
    };
  }

  /** The code of a failure's kind: the same for a download failed here and one a daemon reports. */
  static int of(FailureKind kind) {
    return switch (kind) {
      case USAGE -> USAGE;
      case NETWORK -> NETWORK;
      case HTTP_STATUS -> HTTP_STATUS;
      case REMOTE_CHANGED -> REMOTE_CHANGED;
      case LOCAL_IO -> LOCAL_IO;
      case INTEGRITY -> INTEGRITY;
      case LINK_REFUSED -> LINK_REFUSED;
      case METALINK -> METALINK;
      case REMOVED -> REMOVED;
      case INTERNAL -> INTERNAL;
    };
  }
}
