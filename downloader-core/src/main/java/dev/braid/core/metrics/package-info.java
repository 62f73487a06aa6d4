/** Measurements of a running download: throughput over a sliding window. Internal. */
package dev.braid.core.metrics;
