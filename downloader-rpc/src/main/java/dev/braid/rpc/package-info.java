/**
 * aria2's JSON-RPC 2.0 over HTTP and WebSocket ({@code /jsonrpc}) in front of a {@code Braid}:
 * {@link dev.braid.rpc.RpcServer} is the entry point. This package speaks aria2's vocabulary
 * (gids, status strings, option names) and uses only the public API of {@code dev.braid.core}.
 */
package dev.braid.rpc;
