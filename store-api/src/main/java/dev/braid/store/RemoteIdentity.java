package dev.braid.store;

/**
 * What the server said about the file when its bytes were fetched: the validators a resume must
 * find unchanged before any stored byte is reused.
 *
 * @param finalUrl the URL after redirects, where ranges are requested
 * @param length the total length in bytes, or -1 when the server did not say
 * @param etag the ETag header as sent (strong or weak), or null
 * @param lastModified the Last-Modified header as sent, or null
 * @param ranges whether the server answered a range request with 206
 */
public record RemoteIdentity(String finalUrl, long length, String etag, String lastModified, boolean ranges) {}
