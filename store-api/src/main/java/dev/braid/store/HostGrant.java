package dev.braid.store;

/**
 * The connections one owner holds to one host under {@link HostGrants}.
 *
 * @param host the host, as {@code host:port}
 * @param owner the owner holding them ({@link ProcessOwner} names it)
 * @param connections how many (at least 1)
 */
public record HostGrant(String host, String owner, int connections) {}
