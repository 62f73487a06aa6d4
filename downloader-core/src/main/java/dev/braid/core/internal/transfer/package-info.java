/**
 * Running one download: the driver thread that probes, plans, checkpoints and finishes, and the
 * workers that fetch segments and split the largest remainder when idle. Internal.
 */
package dev.braid.core.internal.transfer;
