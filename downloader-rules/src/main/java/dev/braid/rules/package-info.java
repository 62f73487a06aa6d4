/**
 * The rules file ({@code rules.toml}) that {@code braid get}, {@code braid daemon} and the desktop
 * app read into core's {@link dev.braid.core.rules.Rules}: where it is, its TOML form, and the errors
 * (file, line, key) that a malformed one gets.
 */
package dev.braid.rules;
