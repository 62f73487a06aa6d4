package dev.braid.packaging;

import dev.braid.cli.Main;
import java.io.File;
import java.io.IOException;
import picocli.CommandLine;
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
    CommandLine braid = Main.fullCommandLine();
    exitStatusHeading(braid);
    int status = ManPageGenerator.generateManPage(out, null, new boolean[0], true, braid.getCommandSpec());
    if (status != 0) {
      throw new IOException("ManPageGenerator failed with status " + status);
    }
  }

  /** A man page's section heading is a title, not the help's "Exit codes:" line. */
  private static void exitStatusHeading(CommandLine command) {
    if (!command.getCommandSpec().usageMessage().exitCodeList().isEmpty()) {
      command.getCommandSpec().usageMessage().exitCodeListHeading("Exit status");
    }
    command.getSubcommands().values().forEach(ManPages::exitStatusHeading);
  }
}
