package dev.braid.client;

import dev.braid.core.DownloadRequest;
import dev.braid.core.Fleet;
import dev.braid.core.KnownHost;
import dev.braid.core.QueueOrder;
import dev.braid.core.Registration;
import dev.braid.store.DownloadState;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Everything a face can do with downloads, the same whether the engine runs in this process or in
 * a {@code braid daemon}: add, read the queue a page at a time, act on one download, hear what
 * happens, and read or change the queue-wide options. A face holds one client and never asks
 * which kind it is; what differs (a daemon that went away, a secret refused) arrives as a
 * {@link ClientException} with its {@link ClientException.Reason}.
 *
 * <p>Every method may block on I/O (the store, or a round trip to the daemon); a face with a UI
 * thread calls it from a background thread. Implementations are safe for use by several threads.
 */
public interface BraidClient extends AutoCloseable {
  /**
   * Adds downloads to the queue, in order, in one step: the host rules of the engine's side
   * apply, each folder a request names is made if missing (an exact file's only when it is the
   * request's folder: another must exist, as the engine requires), and either all are added or none.
   *
   * @param requests the downloads (each with its URL, mirrors, folder or file, checksum, options)
   * @param paused true to add them paused (they wait for {@link #resume})
   * @return the new downloads' ids, in the order of {@code requests}
   * @throws ClientException when a request is refused (nothing is added), its file is being downloaded
   *     by another process (FAILED; the requests before it stay added), or the engine is unreachable
   */
  List<Long> add(List<DownloadRequest> requests, boolean paused) throws ClientException;

  /**
   * Adds the files of a Metalink (RFC 5854) document: fetched from its URL by the engine's side,
   * or given as the document's bytes (a local {@code .meta4} read by the face).
   *
   * @param metalink where the document comes from, and which of its files to add into which folder
   * @param paused true to add them paused
   * @return the new downloads' ids, in the document's order
   * @throws ClientException when the document is refused or cannot be fetched (nothing is added)
   */
  List<Long> addMetalink(MetalinkAdd metalink, boolean paused) throws ClientException;

  /**
   * A page of the queue: the downloads in {@code states}, in {@code order}.
   *
   * @param states the states to include
   * @param order oldest first, or in the order the queue starts them
   * @param offset how many matching downloads to skip
   * @param limit at most this many (positive)
   * @return the page; fewer than {@code limit} means it is the last
   * @throws ClientException when the engine is unreachable
   */
  List<DownloadView> page(Set<DownloadState> states, QueueOrder order, long offset, int limit) throws ClientException;

  /**
   * One download as it stands.
   *
   * @param id the download's id
   * @return the download, or empty when no download has this id (or it was removed)
   * @throws ClientException when the engine is unreachable
   */
  Optional<DownloadView> download(long id) throws ClientException;

  /**
   * How many downloads are in each state (a state with none may be absent).
   *
   * @return the counts
   * @throws ClientException when the engine is unreachable
   */
  Map<DownloadState, Long> counts() throws ClientException;

  /**
   * Pauses a queued or active download (wherever it runs); a settled one is left as it is.
   *
   * @param id the download's id
   * @throws ClientException with {@link ClientException.Reason#NOT_FOUND} for an unknown id
   */
  void pause(long id) throws ClientException;

  /**
   * Resumes a paused download or retries a failed one from the bytes on disk; others are left.
   * Right after {@link #pause}, while the run still stops, it takes effect once the run stopped.
   *
   * @param id the download's id
   * @throws ClientException with {@link ClientException.Reason#NOT_FOUND} for an unknown id
   */
  void resume(long id) throws ClientException;

  /**
   * Takes a download out of the queue, stopping it first wherever it runs.
   *
   * @param id the download's id
   * @param deleteFile true to delete its file too, partial or complete
   * @throws ClientException with {@link ClientException.Reason#NOT_FOUND} for an unknown id
   */
  void remove(long id, boolean deleteFile) throws ClientException;

  /**
   * Gives a download a new link for the same file (an expired signed link's replacement); its
   * bytes are kept only when the new link proves to serve the same file.
   *
   * @param id the download's id
   * @param url the new link (http or https)
   * @throws ClientException when the id is unknown or the link is refused
   */
  void changeUrl(long id, URI url) throws ClientException;

  /**
   * Hears what happens to every download from now on, on a thread of the client's, in order.
   * Events that happen between two calls of a face are not lost: a face that adds after
   * following hears the added downloads' ends.
   *
   * @param events called once per event
   * @return stops the calls
   * @throws ClientException when the engine is unreachable
   */
  Registration follow(Consumer<DownloadEvent> events) throws ClientException;

  /**
   * The queue-wide options as they stand.
   *
   * @return the options
   * @throws ClientException when the engine is unreachable
   */
  GlobalOptions globalOptions() throws ClientException;

  /**
   * Changes the queue-wide options, live, and keeps them for the next start where the engine's
   * side stores them.
   *
   * @param options the options to apply (read them with {@link #globalOptions()}, change what you mean to)
   * @throws ClientException when a value is refused (nothing changes) or the engine is unreachable
   */
  void changeGlobalOptions(GlobalOptions options) throws ClientException;

  /**
   * What the engine remembers of the hosts it downloaded from, the most recently learned first.
   *
   * @param limit the most hosts (positive)
   * @return the hosts
   * @throws ClientException with {@link ClientException.Reason#INVALID} for a limit below 1, or when
   *     the engine is unreachable
   */
  List<KnownHost> hosts(int limit) throws ClientException;

  /**
   * The workers sharing the engine's store, the downloads each drives and the connections each
   * holds per host: on a PostgreSQL store, the fleet.
   *
   * @return the fleet, the engine's own worker first
   * @throws ClientException when the engine is unreachable
   */
  Fleet fleet() throws ClientException;

  /** Lets go of the engine: an in-process engine stops (its downloads pause), a daemon runs on. */
  @Override
  void close();
}
