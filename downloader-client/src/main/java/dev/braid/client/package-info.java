/**
 * The client port: {@link dev.braid.client.BraidClient} is everything a face (the command line,
 * the desktop app, the web console, the agent tools) does with downloads, written once; one
 * adapter runs it on an engine in this process, the other on a {@code braid daemon} over its
 * JSON-RPC.
 */
package dev.braid.client;
