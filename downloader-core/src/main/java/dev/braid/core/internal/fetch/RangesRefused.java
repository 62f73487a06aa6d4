package dev.braid.core.internal.fetch;

/**
 * The unchanged file came whole (200) in answer to a range, with no If-Range to blame: the server
 * stopped serving ranges of it (overloaded, reconfigured). Not a change of the file: the pass
 * ends, and the next one probes again and resumes the bytes on disk if the server offers ranges
 * again, or downloads it in one stream from the start if it does not.
 */
public final class RangesRefused extends RemoteChanged {
  public RangesRefused(String message) {
    super(message);
  }
}
