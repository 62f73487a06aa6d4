package dev.braid.rpc;

import com.fasterxml.jackson.databind.JsonNode;

/** One RPC method: its parameters (the secret already checked and taken off) to its result. */
@FunctionalInterface
interface Method {
  JsonNode call(Params params) throws RpcException;
}
