#!/usr/bin/env bash
# bench/library-rounds.sh - many small files from a batch job's own JVM through the library (issue
# 37's "fifth round" row): one JVM with no flags (library/Rounds.java, run from source against the
# CLI's jar, which holds braid-core and its libraries) keeps one Braid and runs ROUNDS batches of
# COUNT x FSIZE from a private nginx on 127.0.0.1, JOBS at once; each round is paired with an
# `aria2c -j JOBS -i LIST` batch run right after it. Per round: braid's wall and CPU (the whole
# process, JIT and GC included, for that round only) against aria2c's; every file's SHA-256 checked.
# The JVM's start and the Braid's construction are outside every round: round 1 is the cold JIT,
# the last the warm one a long-running job reaches.
#
# Usage: [VAR=value ...] bench/library-rounds.sh
# Variables [defaults]: ROUNDS [5], COUNT [1000], FSIZE [100K], JOBS [16], JAR [downloader-cli/target/braid.jar],
#   BENCH_DIR [/tmp/braid-bench], PORT [18184], SCENARIO [library-rounds-<COUNT>x<FSIZE>-j<JOBS>],
#   RESULTS, TIMEOUT per aria2c batch [300], QUIET_PCT [25], QUIET_WAIT [30] (before each round)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
ROUNDS=${ROUNDS:-5} COUNT=${COUNT:-1000} FSIZE=${FSIZE:-100K} JOBS=${JOBS:-16} TIMEOUT=${TIMEOUT:-300}
JAR=${JAR:-$REPO/downloader-cli/target/braid.jar}
BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench} PORT=${PORT:-18184}
QUIET_PCT=${QUIET_PCT:-25} QUIET_WAIT=${QUIET_WAIT:-30}
SCENARIO=${SCENARIO:-library-rounds-${COUNT}x${FSIZE}-j${JOBS}}
die() { echo "library-rounds.sh: $*" >&2; exit 1; }
say() { echo "library-rounds.sh: $*" >&2; }
source "$HERE/lib.sh"
for c in /usr/bin/time timeout openssl aria2c numfmt sha256sum java; do command -v "$c" >/dev/null || die "missing $c: run bench/setup.sh"; done
[[ -s $JAR ]] || die "$JAR not found: build it (mvn -q -DskipTests package)"
FBYTES=$(numfmt --from=iec "$FSIZE") || die "FSIZE '$FSIZE' is not a size"
SDIR=$BENCH_DIR/server-library OUTROOT=$BENCH_DIR/out-library
DATA=$BENCH_DIR/data/small-$COUNT-$FSIZE
mkdir -p "$BENCH_DIR/data"; chmod a+rx "$BENCH_DIR" "$BENCH_DIR/data"
if [[ -z ${RESULTS:-} ]]; then
  RESULTS=$HERE/results/$(date +%F)-$SCENARIO
  for i in $(seq 2 99); do [[ -e $RESULTS ]] || break; RESULTS=$HERE/results/$(date +%F)-$SCENARIO-$i; done
fi
mkdir -p "$RESULTS"
make_small_files "$DATA" "$COUNT" "$FBYTES" "$FSIZE"
# a folder of its own for each batch, spread over ext4's block groups (smallfiles.sh says why)
rm -rf "$OUTROOT"; mkdir -p "$OUTROOT"; chattr +T "$OUTROOT" 2>/dev/null || true
# the jar is copied: a rebuild during the run cannot change what is measured
cp "$JAR" "$OUTROOT/braid.jar"
LIST=$OUTROOT/list.txt
(cd "$DATA" && printf '%s\n' f*.bin) | sed "s|^|http://127.0.0.1:$PORT/|" > "$LIST"

rounds_pid=
finish() {
  if [[ -n $rounds_pid ]]; then kill "$rounds_pid" 2>/dev/null || true; wait "$rounds_pid" 2>/dev/null || true; fi
  stop_nginx
}
trap finish EXIT INT TERM
start_nginx "$DATA"
{
  echo "date:     $(date -Is)"
  echo "scenario: $SCENARIO: $ROUNDS rounds of $COUNT files of $FSIZE, $JOBS at once"
  echo "host:     $(uname -sr), $(nproc) CPUs, $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "aria2c:   $(aria2c --version | head -1)"
  echo "java:     $(java -version 2>&1 | head -1), no flags"
  echo "braid:    $JAR, repo at $(git -C "$REPO" rev-parse --short HEAD)"
  echo "command braid: java -cp braid.jar bench/library/Rounds.java LIST STATE_DB $JOBS (one folder a round on stdin)"
  echo "command aria2c: aria2c -q -j $JOBS -i LIST -d DIR --allow-overwrite=true --auto-file-renaming=false --file-allocation=none"
} > "$RESULTS/env.txt"

coproc ROUNDS_IO { exec java -cp "$OUTROOT/braid.jar" "$HERE/library/Rounds.java" "$LIST" "$OUTROOT/state.db" "$JOBS" 2> "$RESULTS/rounds.err"; }
rounds_pid=$ROUNDS_IO_PID
read -r -t 120 line <&"${ROUNDS_IO[0]}" && [[ $line == ready ]] || die "Rounds.java did not start: $(cat "$RESULTS/rounds.err")"

checked() { (cd "$1" && sha256sum --quiet -c "$DATA/SHA256SUMS" > /dev/null 2>&1) && echo yes || echo no; }
CSV=$RESULTS/runs.csv
echo "round,braid_wall_s,braid_cpu_s,braid_ok,aria2c_wall_s,aria2c_cpu_s,aria2c_ok,busy_before_pct" > "$CSV"
for (( r = 1; r <= ROUNDS; r++ )); do
  busy=$(wait_quiet)
  out=$OUTROOT/braid-$r; mkdir -p "$out"; sync
  echo "$out" >&"${ROUNDS_IO[1]}"
  read -r -t "$TIMEOUT" n bwall bcpu <&"${ROUNDS_IO[0]}" || die "round $r did not finish: $(tail -5 "$RESULTS/rounds.err")"
  bok=$(checked "$out"); rm -rf "$out"
  out=$OUTROOT/aria2c-$r; mkdir -p "$out"; sync
  rc=0; timed "$OUTROOT/time.txt" aria2c -q -j "$JOBS" -i "$LIST" -d "$out" --allow-overwrite=true --auto-file-renaming=false \
    --file-allocation=none > "$RESULTS/aria2c.$r.log" 2>&1 || rc=$?
  [[ -s $RESULTS/aria2c.$r.log ]] || rm -f "$RESULTS/aria2c.$r.log"
  read -r awall auser asys _ < <(tail -1 "$OUTROOT/time.txt")
  aok=$(checked "$out"); [[ $rc == 0 ]] || aok=no; rm -rf "$out"
  acpu=$(awk -v u="$auser" -v s="$asys" 'BEGIN { printf "%.2f", u + s }')
  echo "$r,$bwall,$bcpu,$bok,$awall,$acpu,$aok,$busy" >> "$CSV"
  say "round $r/$ROUNDS braid wall $bwall s cpu $bcpu s ok $bok | aria2c wall $awall s cpu $acpu s ok $aok (busy before $busy %)"
done
exec {ROUNDS_IO[1]}>&-; wait "$rounds_pid" || die "Rounds.java failed: $(tail -5 "$RESULTS/rounds.err")"; rounds_pid=
[[ -s $RESULTS/rounds.err ]] || rm -f "$RESULTS/rounds.err"
{
  echo "# $SCENARIO ($(date +%F))"
  echo
  echo "One JVM with no flags keeps one Braid and downloads $COUNT files of $FSIZE ($JOBS at once) from nginx on"
  echo "127.0.0.1 once a round; \`aria2c -j $JOBS\` runs the same batch right after each round. CPU is the"
  echo "whole process's for the round (braid's JIT and GC included). Host: $(nproc) CPUs, $(uname -r)."
  echo
  echo "| round | braid wall s | braid CPU s | aria2c wall s | aria2c CPU s | wall braid / aria2c | CPU braid / aria2c | SHA-256 braid / aria2c |"
  echo "|---|---|---|---|---|---|---|---|"
  awk -F, 'NR > 1 { printf "| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s / %s |\n", $1, $2, $3, $5, $6, ($5 > 0) ? $2 / $5 : 0, ($6 > 0) ? $3 / $6 : 0, $4, $7 }' "$CSV"
} > "$RESULTS/summary.md"
cat "$RESULTS/summary.md"
