/**
 * Measurements: throughput over a sliding window, and the optional Prometheus endpoint with its
 * instruments. Internal.
 */
package dev.braid.core.internal.metrics;
