package dev.braid.store;

import java.nio.file.Path;

/** What an owner reports about an entry it drives, at each heartbeat. */
public record EntryProgress(long id, Path target, long length, long done) {}
