/**
 * Per-host rules and download categories: the model of a user's rules file and its matching, part
 * of Braid's public API (the one sub-package of {@code dev.braid.core} that is).
 *
 * <p>A {@link dev.braid.core.rules.Rules} holds {@link dev.braid.core.rules.HostRule}s (connections,
 * rate limit, headers, user agent, proxy for the hosts a {@link dev.braid.core.rules.HostPattern}
 * matches) and {@link dev.braid.core.rules.Category}s (the folder for a file type or a host).
 * {@link dev.braid.core.rules.Rules#forUrl} merges the rules that match a URL into
 * {@link dev.braid.core.rules.HostSettings}, which a front end applies to a request before its own
 * explicit options (so those win); {@code BraidBuilder.hostRules} hands the engine the parts that
 * are not per request: proxies and per-host connection caps. Reading a file is the front ends'
 * job: the core has no parser (and no Jackson) to load at start-up.
 */
package dev.braid.core.rules;
