/**
 * The HTTP layer: one pooled Apache HttpClient 5 per {@code Braid} instance and the streaming
 * exchange the engine reads ranges from. Internal: not part of the public API.
 */
package dev.braid.core.internal.http;
