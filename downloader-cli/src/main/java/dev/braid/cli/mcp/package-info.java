/**
 * {@code braid mcp}'s server: the Model Context Protocol over standard input and output (the
 * official Java SDK), whose tools add, show, pause, resume, remove and wait for downloads through
 * the client port ({@link dev.braid.client.BraidClient}), whichever engine it reaches.
 */
package dev.braid.cli.mcp;
