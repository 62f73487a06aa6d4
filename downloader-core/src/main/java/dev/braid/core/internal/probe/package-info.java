/** The first request of a download: what the server says about the file, its body kept as data. Internal. */
package dev.braid.core.internal.probe;
