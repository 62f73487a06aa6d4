/**
 * Fetching one range: the request with If-Range, the checks a response must pass before any of
 * its bytes reach the file, and the copy loop from the socket into the part file. Internal.
 */
package dev.braid.core.internal.fetch;
