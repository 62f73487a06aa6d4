#!/usr/bin/env bash
# bench/startup-pair.sh JAR_A JAR_B - the start-up of two builds of braid, paired: a SIZE download
# with each build's launcher (its own AppCDS archive, made here for its copy) from the project's
# testserver on 127.0.0.1, A and B alternating (which goes first alternates too), REPS pairs,
# a fresh state database per run. Prints the median wall and CPU of each and the paired ratio
# B/A; writes runs.csv and summary.md. Needs no nginx (bench/startup.sh is the fuller table).
#
# Variables [defaults]: SIZE bytes [1048576], REPS [20], BENCH_DIR [/tmp/braid-bench-pair],
#   RESULTS [bench/results/<YYYY-MM-DD>-startup-pair, -2... if taken], QUIET_PCT, QUIET_WAIT [25, 10]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
[[ $# == 2 && -s $1 && -s $2 ]] || { echo "usage: bench/startup-pair.sh JAR_A JAR_B" >&2; exit 2; }
SIZE=${SIZE:-1048576} REPS=${REPS:-20} BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench-pair}
QUIET_PCT=${QUIET_PCT:-25} QUIET_WAIT=${QUIET_WAIT:-10} TIMEOUT=60
die() { echo "startup-pair.sh: $*" >&2; exit 1; }
say() { echo "startup-pair.sh: $*" >&2; }
# shellcheck source=bench/lib.sh
source "$HERE/lib.sh"
TS_JAR=$(ls "$REPO"/testserver/target/braid-testserver-*.jar 2>/dev/null | grep -v -- '-sources\|-javadoc' | head -1 || true)
[[ -n $TS_JAR ]] || die "the testserver jar is missing: mvn -q -DskipTests package"
if [[ -z ${RESULTS:-} ]]; then
  RESULTS=$HERE/results/$(date +%F)-startup-pair
  n=2; base=$RESULTS; while [[ -e $RESULTS ]]; do RESULTS=$base-$n; n=$((n + 1)); done
fi
mkdir -p "$RESULTS/logs" "$BENCH_DIR"
for x in A B; do
  jar=$1; [[ $x == B ]] && jar=$2
  rm -rf "$BENCH_DIR/$x"; mkdir -p "$BENCH_DIR/$x"; cp "$jar" "$BENCH_DIR/$x/braid.jar"
  sh "$REPO/downloader-cli/src/main/dist/make-cds-archive.sh" java "$BENCH_DIR/$x" "$REPO/downloader-cli/src/main/dist" > "$RESULTS/logs/cds-$x.log" 2>&1
  [[ -s $BENCH_DIR/$x/braid.jsa ]] || say "WARNING: no AppCDS archive for $x (see $RESULTS/logs/cds-$x.log)"
done
coproc SERVER { exec java -cp "$TS_JAR" "$HERE/slowfirst/SlowFirstServer.java" "$SIZE" 0 0 2> "$RESULTS/logs/server.log"; }
SERVER_PID=$SERVER_PID
trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true' EXIT
read -r PORT SHA <&"${SERVER[0]}" || die "the server did not start"
{
  echo "date: $(date -Is)"; echo "A: $1 ($(sha256sum "$1" | cut -c1-12))"; echo "B: $2 ($(sha256sum "$2" | cut -c1-12))"
  echo "host: $(uname -sr), $(nproc) CPUs"; echo "java: $(java -version 2>&1 | head -1)"
} > "$RESULTS/env.txt"
CSV=$RESULTS/runs.csv
echo "scenario,tool,rep,exit,ok,wall_s,user_s,sys_s,cpu_s,maxrss_mib,busy_before_pct" > "$CSV"
OUTD=$BENCH_DIR/out
for (( rep = 1; rep <= REPS; rep++ )); do
  order="A B"; (( rep % 2 )) || order="B A"
  for x in $order; do
    rm -rf "$OUTD"; mkdir -p "$OUTD"
    busy=$(wait_quiet)
    rc=0; timed "$BENCH_DIR/time.txt" "$BENCH_DIR/$x/braid" get "http://127.0.0.1:$PORT/even.bin" -o "$OUTD/out.bin" --quiet \
      --state-db "$OUTD/state.db" > "$RESULTS/logs/$x.rep$rep.log" 2>&1 || rc=$?
    [[ -s $RESULTS/logs/$x.rep$rep.log ]] || rm -f "$RESULTS/logs/$x.rep$rep.log"
    read -r wall user sys rss < <(tail -1 "$BENCH_DIR/time.txt")
    ok=yes; [[ $(sha256sum "$OUTD/out.bin" 2>/dev/null | cut -d' ' -f1) == "$SHA" ]] || ok=no
    awk -v t="$x" -v r="$rep" -v rc="$rc" -v ok="$ok" -v w="$wall" -v u="$user" -v y="$sys" -v m="$rss" -v busy="$busy" \
      'BEGIN { printf "startup-pair,%s,%d,%d,%s,%.3f,%.2f,%.2f,%.2f,%.1f,%d\n", t, r, rc, ok, w, u, y, u + y, m / 1024, busy }' >> "$CSV"
  done
done
medians "$CSV" wall_s cpu_s maxrss_mib > "$RESULTS/medians.csv"
{
  echo "# startup-pair ($(date +%F))"; echo
  echo "A $SIZE-byte download from the testserver on 127.0.0.1 with each build's launcher, $REPS pairs, A/B order alternating."
  echo "A = \`$1\`, B = \`$2\`."; echo
  echo '| build | wall s | CPU s | peak RSS MiB |'; echo '|---|---|---|---|'
  tail -n +2 "$RESULTS/medians.csv" | awk -F, '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
  echo; echo "Paired ratio B/A (median, min, max, pairs): wall $(paired_ratio "$CSV" B A wall_s), CPU $(paired_ratio "$CSV" B A cpu_s)"
} > "$RESULTS/summary.md"
cat "$RESULTS/summary.md"
