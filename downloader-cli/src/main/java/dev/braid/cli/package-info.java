/** The {@code braid} command: argument parsing, progress display and exit codes over the public API. */
package dev.braid.cli;
