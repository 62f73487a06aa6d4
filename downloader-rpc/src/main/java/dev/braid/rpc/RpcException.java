package dev.braid.rpc;

/** A JSON-RPC error answer: aria2's code 1 for a method's failure, the JSON-RPC codes for bad requests. */
final class RpcException extends Exception {
  private static final long serialVersionUID = 1L;

  static final int FAILED = 1;
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int INVALID_PARAMS = -32602;

  private final int code;

  RpcException(int code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  /** A method's failure (aria2 answers every one with code 1). */
  static RpcException failed(String message) {
    return new RpcException(FAILED, message);
  }

  int code() {
    return code;
  }
}
