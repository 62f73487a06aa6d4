package dev.braid.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The resume records: per download, what the server said about the file and which of its bytes
 * are durably on disk. The only source of truth for a resume, read and written by the download's
 * driver thread (and {@link #delete} by whoever removes a download).
 *
 * <p>The engine keeps invariant 1 (recorded progress never exceeds durable bytes) by forcing the
 * data file before {@link #checkpoint} or {@link #complete}: the store promises only that each
 * call is atomic, its segments and block sums written together or not at all.
 */
public interface ResumeRecords {
  /**
   * {@return the stored download whose final file is {@code target}, if any}
   *
   * @param target the final file
   */
  Optional<DownloadRecord> findByTarget(Path target);

  /**
   * {@return downloads of {@code url} that have not completed, newest first}
   *
   * @param url the download's URL
   */
  List<DownloadRecord> findUnfinished(String url);

  /**
   * {@return the stored download with this id, if any}
   *
   * @param id the record's id
   */
  Optional<DownloadRecord> find(long id);

  /** {@return every stored download, oldest first} */
  List<DownloadRecord> list();

  /**
   * Records a new download to {@code target}, status {@link DownloadState#ACTIVE}, replacing any
   * earlier record for the same target (and its segments and block sums) atomically. Returns the
   * new id.
   *
   * @param url the URL it is fetched from
   * @param target the final file
   * @param remote what the server said about the file
   * @param segments the first segments
   * @return the new record's id
   */
  long create(String url, Path target, RemoteIdentity remote, List<SegmentRecord> segments);

  /**
   * {@return the stored segments of a download, by start offset}
   *
   * @param id the record's id
   */
  List<SegmentRecord> segments(long id);

  /**
   * Replaces the segments of a download and adds the sums of blocks that became complete,
   * atomically: a block's sum is recorded exactly when the progress that finishes it is.
   *
   * @param id the record's id
   * @param segments every segment, as now durable
   * @param newBlockSums the CRC32C of each block completed since the last checkpoint, by index
   */
  void checkpoint(long id, List<SegmentRecord> segments, Map<Integer, Integer> newBlockSums);

  /**
   * The last checkpoint of a download whose every byte is done and forced: records the progress
   * and block sums and marks it {@link DownloadState#COMPLETED}, atomically. The caller renames
   * its part file after this.
   *
   * @param id the record's id
   * @param segments every segment, all done
   * @param newBlockSums the CRC32C of each block completed since the last checkpoint, by index
   */
  void complete(long id, List<SegmentRecord> segments, Map<Integer, Integer> newBlockSums);

  /**
   * {@return the recorded CRC32C of each finished block of a download, by block index}
   *
   * @param id the record's id
   */
  Map<Integer, Integer> blockSums(long id);

  /**
   * Replaces a download's progress after its bytes on disk were found damaged: the segments as
   * trimmed and only the block sums still valid, atomically.
   *
   * @param id the record's id
   * @param segments the segments, trimmed to the bytes still good
   * @param validSums the block sums that still hold, by index
   */
  void repair(long id, List<SegmentRecord> segments, Map<Integer, Integer> validSums);

  /**
   * Sets the status (and error text, null to clear) of a download.
   *
   * @param id the record's id
   * @param status the new status
   * @param error the error text, or null
   */
  void markStatus(long id, DownloadState status, String error);

  /**
   * Moves a download to a new URL shown to serve the same file (a refreshed link): its segments
   * and block sums stay; the URL and what the new server says replace the old.
   *
   * @param id the record's id
   * @param url the new URL
   * @param remote what the new server says about the file
   */
  void changeUrl(long id, String url, RemoteIdentity remote);

  /**
   * Forgets a download with its segments and block sums.
   *
   * @param id the record's id
   */
  void delete(long id);
}
