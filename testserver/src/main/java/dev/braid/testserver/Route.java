package dev.braid.testserver;

import java.io.IOException;

/** Answers requests for one registered path. */
interface Route {
  /** The answer to paths nobody registered. */
  Route NOT_FOUND = new Fixed(404, null, null);
  /** The answer to methods other than GET and HEAD. */
  Route METHOD_NOT_ALLOWED = new Fixed(405, null, null);

  /** Sends the response on {@code connection}; returns whether the connection may be reused. */
  boolean respond(HttpRequest request, Connection connection) throws IOException, InterruptedException;

  /** A fixed status with a one-line text body, plus Location for redirects and a cookie to set, if any. */
  record Fixed(int status, String location, String setCookie) implements Route {
    @Override
    public boolean respond(HttpRequest request, Connection connection) throws IOException, InterruptedException {
      Response response = Response.text(status)
          .header("Location", location)
          .header("Set-Cookie", setCookie)
          .header("Allow", status == 405 ? "GET, HEAD" : null);
      return connection.send(request, response);
    }
  }
}
