package dev.braid.rpc;

import io.undertow.server.HttpHandler;
import io.undertow.server.handlers.resource.ClassPathResourceManager;
import io.undertow.server.handlers.resource.ResourceHandler;

/**
 * The web console's files (HTML, CSS, ES modules), served from this jar under {@code /}: nothing
 * is built at run time or fetched from elsewhere. Undertow's resource handler serves them (GET
 * and HEAD only, no folder listings, ETags); an unknown path is 404.
 */
final class ConsoleFiles {
  /** Where the files lie in the jar (src/main/resources). */
  static final String FOLDER = "dev/braid/rpc/console";

  private ConsoleFiles() {}

  static HttpHandler handler() {
    ResourceHandler files = new ResourceHandler(new ClassPathResourceManager(ConsoleFiles.class.getClassLoader(), FOLDER));
    files.setWelcomeFiles("index.html");
    files.setDirectoryListingEnabled(false);
    return files;
  }
}
