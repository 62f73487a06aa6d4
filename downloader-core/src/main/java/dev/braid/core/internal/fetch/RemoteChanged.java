package dev.braid.core.internal.fetch;

/**
 * The server's file is no longer the one being downloaded (a 200 to If-Range with other
 * validators, another validator or total length), or, as {@link RangesRefused}, the server no
 * longer serves ranges of it. Nothing from the response that showed it was written; the pass
 * ends, and the download starts another (which resumes or starts over) or stops, never splices.
 */
public class RemoteChanged extends Exception {
  public RemoteChanged(String message) {
    super(message);
  }
}
