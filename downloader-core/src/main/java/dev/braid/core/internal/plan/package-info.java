/**
 * The plan of one download: which byte ranges exist, which worker owns each, how far each got,
 * and how an idle worker gets work by splitting the largest remainder. Internal.
 */
package dev.braid.core.internal.plan;
