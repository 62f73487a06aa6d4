package dev.braid.core.internal.transfer;

import dev.braid.core.internal.plan.SegmentTable;
import dev.braid.core.internal.verify.BlockSums;

/**
 * What a pass starts from, as {@link ResumePlanner} decided it: the segments (resumed or fresh),
 * the store record they belong to, how many bytes on disk were kept, and the block sums.
 *
 * @param sums sums of the finished blocks; null when the download cannot resume anyway (no ranges or no length)
 */
record ResumePlan(SegmentTable table, long recordId, long reused, BlockSums sums) {}
