package dev.braid.client.remote;

import dev.braid.client.DownloadEvent.Kind;
import java.util.Map;

/**
 * The daemon's JSON-RPC as its clients and its server name it, in one place: the {@code braid.*}
 * methods of the client port, the aria2 notifications the port's events come from, and the
 * error codes and texts a {@code braid.*} call answers with. The server ({@code downloader-rpc})
 * registers and answers with these; {@link RemoteClient} calls and reads them.
 */
public final class RpcNames {
  private RpcNames() {}

  /** {@code braid.add(requests, paused)}: {@link RequestForm}s, all added in one transaction or none; their gids. */
  public static final String ADD = "braid.add";
  /** {@code braid.addMetalink({url|document, folder, selection}, paused)}: the files' gids. */
  public static final String ADD_METALINK = "braid.addMetalink";
  /** {@code braid.page(states, order, offset, limit)}: {@link EntryForm}s. */
  public static final String PAGE = "braid.page";
  /** {@code braid.tellEntry(gid)}: one {@link EntryForm}. */
  public static final String TELL_ENTRY = "braid.tellEntry";
  /** {@code braid.tellEntries(offset, num)}: {@link EntryForm}s, oldest first. */
  public static final String TELL_ENTRIES = "braid.tellEntries";
  /** {@code braid.tellSegments(gid)}: a running download's ranges. */
  public static final String TELL_SEGMENTS = "braid.tellSegments";
  /** {@code braid.counts()}: downloads by state name. */
  public static final String COUNTS = "braid.counts";
  /** {@code braid.pause(gid)}: pauses an unsettled download, leaves a settled one. */
  public static final String PAUSE = "braid.pause";
  /** {@code braid.resume(gid)}: resumes a paused or failed download, leaves others. */
  public static final String RESUME = "braid.resume";
  /** {@code braid.remove(gid, deleteFile)}: out of the queue, with its file when deleteFile is "true". */
  public static final String REMOVE = "braid.remove";
  /** {@code braid.changeUrl(gid, url)}: a new link for the same file. */
  public static final String CHANGE_URL = "braid.changeUrl";
  /** {@code braid.globalOptions()}: {@link GlobalOptionsForm}. */
  public static final String GLOBAL_OPTIONS = "braid.globalOptions";
  /** {@code braid.changeGlobalOptions(options)}: applies a {@link GlobalOptionsForm}. */
  public static final String CHANGE_GLOBAL_OPTIONS = "braid.changeGlobalOptions";
  /** {@code braid.hosts(limit)}: what the engine remembers per host, most recent first ({@link FleetForm}). */
  public static final String HOSTS = "braid.hosts";
  /** {@code braid.fleet()}: the workers sharing the store, their downloads and host grants ({@link FleetForm}). */
  public static final String FLEET = "braid.fleet";
  /**
   * {@code braid.whoami()}: what the call's credential may do, {@code {"scope": "full"|"read-only"}},
   * with {@code "key": NAME} when it is an API key rather than the secret.
   */
  public static final String WHOAMI = "braid.whoami";

  /** aria2's notification that a download started. */
  public static final String ON_START = "aria2.onDownloadStart";
  /** aria2's notification that a download was paused. */
  public static final String ON_PAUSE = "aria2.onDownloadPause";
  /** aria2's notification that a download was removed. */
  public static final String ON_STOP = "aria2.onDownloadStop";
  /** aria2's notification that a download completed. */
  public static final String ON_COMPLETE = "aria2.onDownloadComplete";
  /** aria2's notification that a download failed. */
  public static final String ON_ERROR = "aria2.onDownloadError";

  /** The notifications the port's events come from, by name. */
  public static final Map<String, Kind> EVENTS = Map.of(ON_START, Kind.STARTED, ON_PAUSE, Kind.PAUSED,
      ON_STOP, Kind.REMOVED, ON_COMPLETE, Kind.COMPLETED,
      ON_ERROR, Kind.FAILED);

  /** aria2's code for a method's failure: a {@code braid.*} call the engine could not do (the port's FAILED). */
  public static final int FAILED = 1;
  /** JSON-RPC's invalid params: a {@code braid.*} call refused as given (the port's INVALID). */
  public static final int INVALID = -32602;
  /** A server error of JSON-RPC's implementation-defined range: no download has the gid (the port's NOT_FOUND). */
  public static final int NOT_FOUND = -32004;
  /**
   * A server error of JSON-RPC's implementation-defined range: the call's credential is a
   * read-only API key and the method changes something ({@link #FORBIDDEN_TEXT}).
   */
  public static final int FORBIDDEN = -32003;
  /** The start of the message of a {@link #FORBIDDEN} answer. */
  public static final String FORBIDDEN_TEXT = "Forbidden: a read-only key cannot call ";
  /** The text of aria2's answer to a wrong secret (code {@link #FAILED}), and the start of the guess limiter's. */
  public static final String UNAUTHORIZED = "Unauthorized";
}
