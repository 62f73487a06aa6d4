package dev.braid.core;

/**
 * What the server said about the file.
 *
 * @param finalUrl the URL after redirects
 * @param length bytes, or -1 when the server did not say
 * @param etag the entity tag, or null
 * @param lastModified the Last-Modified date as sent, or null
 * @param ranges whether the server serves byte ranges (several connections, resume)
 */
public record RemoteFile(String finalUrl, long length, String etag, String lastModified, boolean ranges) {}
