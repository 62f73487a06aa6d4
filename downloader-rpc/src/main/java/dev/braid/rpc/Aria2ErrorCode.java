package dev.braid.rpc;

import dev.braid.core.DownloadFailure;
import dev.braid.core.FailureDetail;
import dev.braid.core.FailureKind;

/**
 * A failure as the code of aria2's EXIT STATUS table, the {@code errorCode} aria2 answers in
 * {@code tellStatus} and front ends explain to the user (AriaNg shows each code's meaning). The one
 * table from Braid's failure kinds to aria2's codes; docs/architecture.md lists it.
 */
final class Aria2ErrorCode {
  private Aria2ErrorCode() {}

  /** aria2's code for {@code f}, as the string its answers carry. */
  static String of(DownloadFailure f) {
    return Integer.toString(switch (f.kind()) {
      case USAGE -> 28;
      case NETWORK -> switch (f.detail()) {
        case TIMEOUT, DEADLINE -> 2;
        case NAME_RESOLUTION -> 19;
        case PROXY_AUTH -> 24;
        default -> 6;
      };
      case HTTP_STATUS -> f.detail() == FailureDetail.REDIRECT ? 23 : ofStatus(f.httpStatus());
      // aria2's "server did not support resume when resume was required": the bytes on disk cannot continue
      case REMOTE_CHANGED, LINK_REFUSED -> 8;
      case LOCAL_IO -> switch (f.detail()) {
        case DISK_FULL -> 9;
        case FILE_EXISTS -> 13;
        case FOLDER -> 18;
        case IN_USE -> 11;
        default -> 17;
      };
      // other ranges than asked, or another length: a response aria2 calls bad or unexpected
      case INTEGRITY -> f.detail() == FailureDetail.CHECKSUM ? 32 : 22;
      case METALINK -> 20;
      case REMOVED -> 31;
      case INTERNAL -> 1;
    });
  }

  /** aria2's code for a download removed from the queue, which aria2 also answers for one removed without failing. */
  static String removed() {
    return of(new DownloadFailure(FailureKind.REMOVED, FailureDetail.NONE, 0));
  }

  /** As aria2 reads a final status: 401 authorization, 404 not found, 502-504 unavailable, any other a bad response. */
  private static int ofStatus(int status) {
    return switch (status) {
      case 401 -> 24;
      case 404 -> 3;
      case 502, 503, 504 -> 29;
      default -> 22;
    };
  }
}
