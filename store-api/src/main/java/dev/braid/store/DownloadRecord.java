package dev.braid.store;

import java.nio.file.Path;

/**
 * A stored download.
 *
 * @param id the store's key
 * @param url the URL the user asked for
 * @param target the absolute path of the final file (its bytes go to {@code target + ".part"} first)
 * @param remote what the server said when the stored bytes were fetched
 * @param status where it stands
 * @param error the last error message, or null
 */
public record DownloadRecord(long id, String url, Path target, RemoteIdentity remote, DownloadState status, String error) {}
