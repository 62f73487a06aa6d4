/**
 * A small HTTP/1.1 server on loopback, built on plain sockets so that faults can be injected at
 * the byte level: ranges, validators, throttling, drops, truncations, stalls and bad headers.
 *
 * <p>{@link dev.braid.testserver.TestServer} is the entry point; it serves
 * {@link dev.braid.testserver.Content} through configurable
 * {@link dev.braid.testserver.Resource}s and records every request as a
 * {@link dev.braid.testserver.RequestRecord}. The test suites use it to drive the downloader
 * against real sockets, and {@code braid demo} uses it to serve a throttled generated file.
 */
package dev.braid.testserver;
