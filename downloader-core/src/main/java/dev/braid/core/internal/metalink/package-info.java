/** Reading Metalink 4 documents (RFC 5854) into {@link dev.braid.core.Metalink}: hardened StAX parsing. */
package dev.braid.core.internal.metalink;
