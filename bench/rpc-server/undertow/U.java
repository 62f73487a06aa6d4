import io.undertow.Undertow;
import io.undertow.Handlers;
import io.undertow.websockets.core.*;
import io.undertow.util.Headers;
public class U {
  public static void main(String[] a) throws Exception {
    long t0 = Long.parseLong(a[0]);
    var ws = Handlers.websocket((ex, ch) -> { ch.getReceiveSetter().set(new AbstractReceiveListener() {
      protected void onFullTextMessage(WebSocketChannel c, BufferedTextMessage m) { WebSockets.sendText(m.getData(), c, null); } }); ch.resumeReceives(); });
    var http = (io.undertow.server.HttpHandler) ex -> ex.getRequestReceiver().receiveFullString((e, body) -> {
      e.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json"); e.getResponseSender().send("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"ok\"}"); });
    var root = (io.undertow.server.HttpHandler) ex -> { if (ex.getRequestHeaders().contains(Headers.UPGRADE)) ws.handleRequest(ex); else http.handleRequest(ex); };
    Undertow u = Undertow.builder().addHttpListener(6902, "127.0.0.1").setHandler(root).build();
    u.start();
    System.err.println("started ms " + (System.currentTimeMillis() - t0));
  }
}
