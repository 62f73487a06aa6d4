/** Hooks: what runs when a download ends (commands, webhooks), on threads of their own, each bounded in time. */
package dev.braid.core.internal.hook;
