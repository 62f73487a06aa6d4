package dev.braid.rpc;

import static dev.braid.rpc.Dispatcher.NODES;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.braid.core.DownloadFailure;
import dev.braid.core.HookEvent;

/**
 * The JSON a webhook POSTs for a download's end, in aria2's vocabulary where it has one:
 * {@code {"event":"complete"|"error", "status":"complete"|"error", "gid":"...", "id":3, "files":1,
 * "path":"...", "length":1234, "url":"...", "errorCode":"0"|aria2's code, "errorKind":"...", "errorMessage":"..."}}.
 * No secret is in it: neither the RPC token nor a request's credentials (a URL never keeps its user:password@).
 */
public final class WebhookBody {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private WebhookBody() {}

  /** The body for {@code e}. */
  public static String of(HookEvent e) {
    boolean ok = e.kind() == HookEvent.Kind.COMPLETE;
    ObjectNode o = NODES.objectNode();
    o.put("event", ok ? "complete" : "error");
    o.put("status", ok ? "complete" : "error");
    o.put("gid", e.gid());
    o.put("id", e.id());
    o.put("files", 1);
    o.put("path", e.path());
    o.put("length", e.length());
    o.put("url", e.url());
    // the code aria2 gives its cause, as the RPC's tellStatus answers it
    o.put("errorCode", ok ? "0" : Aria2ErrorCode.of(DownloadFailure.of(e.failure())));
    o.put("errorKind", e.errorKind());
    o.put("errorMessage", e.errorMessage());
    try {
      return MAPPER.writeValueAsString(o);
    } catch (JsonProcessingException x) {
      throw new IllegalStateException("a webhook body that cannot be written", x);
    }
  }
}
