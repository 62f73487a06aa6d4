package dev.braid.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** One RPC method: its parameters (the secret already checked and taken off) to its result. */
@FunctionalInterface
interface Method {
  JsonNode call(Params params) throws RpcException;

  /**
   * Consecutive calls of one method in a {@code system.multicall}, taken together (each call's
   * secret checked and taken off): each call's result, a {@link JsonNode} or the
   * {@link RpcException} it answers, in order. Failures are per call; it throws nothing.
   */
  @FunctionalInterface
  interface Batch {
    List<Object> callAll(List<Params> calls);
  }
}
