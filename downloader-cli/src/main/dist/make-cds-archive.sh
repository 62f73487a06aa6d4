#!/bin/sh
# Run by Maven in the package phase: installs the launcher and its compiler directives next to the
# shaded jar, unpacks the SQLite driver's native library for this platform into native/ and makes
# the AppCDS archive braid.jsa with the launcher's `braid setup`: a training run of `braid demo --https` (loopback
# downloads through the whole engine, the store and the TLS stack: trained over plain HTTP, the archive left out the
# ~1,000 classes of TLS, certificates and ciphers, and a 1 MiB download over HTTPS took 1.12x the wall time).
# Usage: make-cds-archive.sh JAVA TARGET_DIR SOURCE_DIR
set -eu
java=$1 target=$(readlink -f "$2") src=$3
cp "$src/braid" "$target/braid"
cp "$src/braid-jit.json" "$target/braid-jit.json"
chmod 755 "$target/braid"
jar="$target/braid.jar"
rm -f "$target/braid.jsa" "$target/braid-client.jsa" "$target/braid.jsa.stamp"
# Without it the driver reads ~1 MiB from the jar and compares it with a copy in /tmp on every
# start (~0.1 s of a 0.45 s run); the launcher passes this copy when the platform matches.
rm -rf "$target/native"
platform=$("$java" -cp "$jar" org.sqlite.util.OSInfo 2>/dev/null || true)
jartool=$(dirname "$(readlink -f "$(command -v "$java")")")/jar
if [ -n "$platform" ] && [ -x "$jartool" ]; then
  mkdir -p "$target/native"
  (cd "$target/native" && "$jartool" xf "$jar" "org/sqlite/native/$platform/libsqlitejdbc.so")
  lib="$target/native/org/sqlite/native/$platform/libsqlitejdbc.so"
  if [ -f "$lib" ]; then
    mkdir -p "$target/native/$(uname -s)-$(uname -m)"
    mv "$lib" "$target/native/$(uname -s)-$(uname -m)/libsqlitejdbc.so"
  fi
  rm -rf "$target/native/org"
fi
# the launcher's own training, with its flags (an archive made under other GC flags is refused at run time)
JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v "$java")")")") "$target/braid" setup \
  > "$target/braid-cds-training.log" 2>&1 \
  || echo "make-cds-archive: the training run failed (see $target/braid-cds-training.log); no archive" >&2
