package dev.braid.cli;

import dev.braid.core.DownloadException;
import dev.braid.core.DownloadPausedException;
import dev.braid.core.HttpStatusException;
import dev.braid.core.IntegrityException;
import dev.braid.core.InvalidRequestException;
import dev.braid.core.LocalFileException;
import dev.braid.core.NetworkException;
import dev.braid.core.RedirectRefusedException;
import dev.braid.core.RemoteChangedException;

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
  /** {@code braid daemon}: another daemon already runs the engine of this state database. */
  static final int ENGINE_RUNNING = 8;
  static final int INTERRUPTED = 130;

  private ExitCode() {}

  static int of(DownloadException e) {
    if (e instanceof InvalidRequestException) {
      return USAGE;
    } else if (e instanceof NetworkException) {
      return NETWORK;
    } else if (e instanceof HttpStatusException || e instanceof RedirectRefusedException) {
      return HTTP_STATUS;
    } else if (e instanceof RemoteChangedException) {
      return REMOTE_CHANGED;
    } else if (e instanceof LocalFileException) {
      return LOCAL_IO;
    } else if (e instanceof IntegrityException) {
      return INTEGRITY;
    } else if (e instanceof DownloadPausedException) {
      return INTERRUPTED;
    }
    return INTERNAL;
  }
}
