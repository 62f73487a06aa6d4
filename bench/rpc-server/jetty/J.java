import org.eclipse.jetty.server.*;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.eclipse.jetty.websocket.api.Session;
import java.nio.charset.StandardCharsets;
public class J {
  public static void main(String[] a) throws Exception {
    long t0 = Long.parseLong(a[0]);
    Server s = new Server();
    ServerConnector c = new ServerConnector(s); c.setHost("127.0.0.1"); c.setPort(6901); s.addConnector(c);
    WebSocketUpgradeHandler ws = WebSocketUpgradeHandler.from(s, container -> container.addMapping("/jsonrpc", (rq, rs, cb) -> new Session.Listener.AutoDemanding() {
      Session sess; public void onWebSocketOpen(Session x){sess=x;} public void onWebSocketText(String m){sess.sendText(m, org.eclipse.jetty.websocket.api.Callback.NOOP);} }));
    ws.setHandler(new Handler.Abstract() {
      public boolean handle(Request r, Response rs, Callback cb) throws Exception {
        String body = Content.Source.asString(r, StandardCharsets.UTF_8);
        rs.getHeaders().put("Content-Type", "application/json");
        Content.Sink.write(rs, true, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"ok\"}", cb); return true; } });
    s.setHandler(ws);
    s.start();
    System.err.println("started ms " + (System.currentTimeMillis() - t0));
  }
}
