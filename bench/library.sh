#!/usr/bin/env bash
# bench/library.sh - checks README's "Using the library" end to end, as a library user follows it:
# `mvn install` from the repository's root into a throwaway local Maven repository, then a copy of
# examples/library (a separate project that depends on braid-core alone) built against that
# repository and run: it downloads a file from the project's testserver on 127.0.0.1, and the
# bytes are checked. Correctness, not speed; a few minutes (the install builds every module).
#
#   bench/library.sh
#
# Environment: M2 the throwaway local repository [/tmp/braid-library-m2], seeded from
# ~/.m2/repository when it does not exist (so that only what is missing is downloaded; the shared
# repository itself is never written); SIZE of the file in bytes [8 MiB]; MVN_ARGS extra arguments
# for both Maven runs (-o offline).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
M2=${M2:-/tmp/braid-library-m2}
SIZE=${SIZE:-8388608}
read -r -a MVN_EXTRA <<< "${MVN_ARGS:-}"
die() { echo "library.sh: $*" >&2; exit 1; }
say() { echo "library.sh: $*" >&2; }

if [[ ! -d $M2 ]]; then
  if [[ -d $HOME/.m2/repository ]]; then cp -r "$HOME/.m2/repository" "$M2"; else mkdir -p "$M2"; fi
fi
# what an earlier install put there: this check must find the artifacts of this install only
rm -rf "$M2/dev/braid"
WORK=$(mktemp -d)

say "mvn -DskipTests install (local repository $M2)"
mvn -B -q -DskipTests -Dmaven.repo.local="$M2" "${MVN_EXTRA[@]}" -f "$REPO/pom.xml" install > "$WORK/install.log" 2>&1 \
  || { tail -40 "$WORK/install.log" >&2; die "mvn install failed (log: $WORK/install.log)"; }
CORE=$M2/dev/braid/braid-core/0.1.0-SNAPSHOT
for f in braid-core-0.1.0-SNAPSHOT.jar braid-core-0.1.0-SNAPSHOT-sources.jar braid-core-0.1.0-SNAPSHOT-javadoc.jar; do
  [[ -s $CORE/$f ]] || die "mvn install did not install $CORE/$f"
done

say "building a copy of examples/library against it"
cp -r "$REPO/examples/library" "$WORK/library"
rm -rf "$WORK/library/target"
(cd "$WORK/library" && mvn -B -q -Dmaven.repo.local="$M2" "${MVN_EXTRA[@]}" package) > "$WORK/example.log" 2>&1 \
  || { tail -40 "$WORK/example.log" >&2; die "the example did not build (log: $WORK/example.log)"; }

TS_JAR=$M2/dev/braid/braid-testserver/0.1.0-SNAPSHOT/braid-testserver-0.1.0-SNAPSHOT.jar
coproc SERVER { exec java -cp "$TS_JAR" "$HERE/library/OneFileServer.java" "$SIZE" 2> "$WORK/server.log"; }
SERVER_PID=$SERVER_PID
trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true' EXIT
read -r PORT SHA <&"${SERVER[0]}" || die "the testserver did not start: $WORK/server.log"

say "example.Fetch http://127.0.0.1:$PORT/file.bin"
OUT=$WORK/out
(cd "$WORK/library" && java -cp "target/classes:$(cat target/classpath)" example.Fetch "http://127.0.0.1:$PORT/file.bin" "$OUT") \
  || die "example.Fetch failed"
[[ $(sha256sum "$OUT/file.bin" | cut -d' ' -f1) == "$SHA" ]] || die "$OUT/file.bin does not have the served bytes"
say "OK: installed into $M2, examples/library built against braid-core alone and downloaded $SIZE bytes (SHA-256 $SHA)"
rm -rf "$WORK"
