package dev.braid.store;

/**
 * Where a queue's change feed stands at one look ({@link QueueStore#mark}).
 *
 * @param newestId the highest entry id given so far, 0 for an empty queue
 * @param latestChange the number of the latest change, 0 for an empty queue
 * @param othersWrote whether another owner wrote since the store's previous look; when false,
 *     every change up to {@code latestChange} was the looking process's own
 */
public record ChangeMark(long newestId, long latestChange, boolean othersWrote) {}
