package dev.braid.packaging;

import dev.braid.cli.Main;
import java.io.File;
import java.io.IOException;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Run at build time: writes the AsciiDoc man pages of {@code braid} and each subcommand
 * ({@code braid.adoc}, {@code braid-get.adoc}, ...) with picocli's ManPageGenerator, from the model
 * the CLI builds in code; asciidoctor then turns them into troff ({@code braid.1}, ...).
 */
public final class ManPages {
  private ManPages() {}

  /** {@code ManPages OUTPUT_DIR}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ManPages OUTPUT_DIR");
    }
    File out = new File(args[0]);
    if (!out.isDirectory() && !out.mkdirs()) {
      throw new IOException("cannot make " + out);
    }
    int status = ManPageGenerator.generateManPage(out, null, new boolean[0], true, Main.fullCommandLine().getCommandSpec());
    if (status != 0) {
      throw new IOException("ManPageGenerator failed with status " + status);
    }
  }
}
