package dev.braid.core.fetch;

/**
 * The server's file is no longer the one being downloaded (a 200 to If-Range, another validator
 * or total length). Nothing from the response that showed it was written; the download starts
 * over or stops, never splices.
 */
public final class RemoteChanged extends Exception {
  public RemoteChanged(String message) {
    super(message);
  }
}
