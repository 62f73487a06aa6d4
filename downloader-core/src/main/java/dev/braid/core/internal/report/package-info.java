/**
 * What the engine tells a face about itself beyond its downloads, read from the store on demand:
 * the hosts it remembers ({@link dev.braid.core.internal.report.HostReport}) and the workers
 * sharing its store ({@link dev.braid.core.internal.report.FleetReport}). Internal to the engine:
 * {@code Braid} calls these.
 */
package dev.braid.core.internal.report;
