#!/usr/bin/env bash
# bench/slowfirst.sh - what one connection slow from its first request costs (issue 20 item 5):
# the same file from the project's testserver on 127.0.0.1, once with the connection that asks
# for byte 0 crawling (/slow.bin) and once without (/even.bin), every other connection at RATE;
# braid and aria2c each fetch both in every repetition. The figure is the paired ratio
# slow/even per tool (same run, same machine), not an absolute time.
#
# Usage: [VAR=value ...] bench/slowfirst.sh        (build first: mvn -q -DskipTests package)
# Variables [defaults]: SIZE bytes [100663296 = 96 MiB], RATE per connection, bytes/s
#   [8388608 = 8 MiB/s], SLOW the slow connection's rate [262144 = 256 KiB/s], REPS [5],
#   TOOLS [braid aria2c], BRAID_JAR the jar under test [downloader-cli/target/braid.jar], TIMEOUT s per run [120], BENCH_DIR [/tmp/braid-bench-slowfirst],
#   RESULTS [bench/results/<YYYY-MM-DD>-slowfirst, -2... if taken],
#   QUIET_PCT, QUIET_WAIT as in ranged.sh [25, 30]
# The server is this script's child on an ephemeral port of 127.0.0.1 and ends with it.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SIZE=${SIZE:-100663296}
RATE=${RATE:-8388608}
SLOW=${SLOW:-262144}
REPS=${REPS:-5}
TOOLS=${TOOLS:-braid aria2c}
TIMEOUT=${TIMEOUT:-120}
BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench-slowfirst}
QUIET_PCT=${QUIET_PCT:-25}
QUIET_WAIT=${QUIET_WAIT:-30}
die() { echo "slowfirst.sh: $*" >&2; exit 1; }
say() { echo "slowfirst.sh: $*" >&2; }
# shellcheck source=bench/lib.sh
source "$HERE/lib.sh"

JAR=${BRAID_JAR:-$REPO/downloader-cli/target/braid.jar}
TS_JAR=$(ls "$REPO"/testserver/target/braid-testserver-*.jar 2>/dev/null | grep -v -- '-sources\|-javadoc' | head -1 || true)
[[ -s $JAR && -n $TS_JAR ]] || die "braid.jar or the testserver jar is missing: mvn -q -DskipTests package"
if [[ -z ${RESULTS:-} ]]; then
  RESULTS=$HERE/results/$(date +%F)-slowfirst
  n=2; base=$RESULTS; while [[ -e $RESULTS ]]; do RESULTS=$base-$n; n=$((n + 1)); done
fi
mkdir -p "$RESULTS/logs" "$BENCH_DIR"
OUTD=$BENCH_DIR/out

coproc SERVER { exec java -cp "$TS_JAR" "$HERE/slowfirst/SlowFirstServer.java" "$SIZE" "$RATE" "$SLOW" 2> "$RESULTS/logs/server.log"; }
SERVER_PID=$SERVER_PID
trap 'exec {SERVER[1]}>&- 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true' EXIT
read -r PORT SHA <&"${SERVER[0]}" || die "the server did not start: $RESULTS/logs/server.log"

tool_cmd() { # TOOL PATH
  local url="http://127.0.0.1:$PORT/$2"
  case $1 in
    braid)  cmd=(java -jar "$JAR" get "$url" -o "$OUTD/out.bin" --quiet --overwrite --state-db "$OUTD/state.db") ;;
    aria2c) cmd=(aria2c -q -x 16 -s 16 -k 1M --allow-overwrite=true --auto-file-renaming=false --file-allocation=none
                 -d "$OUTD" -o out.bin "$url") ;;
    *) die "unknown tool $1" ;;
  esac
}
{
  echo "date:     $(date -Is)"
  echo "scenario: $SIZE bytes, every connection at $RATE B/s, on slow.bin the one from byte 0 at $SLOW B/s; $REPS reps"
  echo "host:     $(uname -sr), $(nproc) CPUs, $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM"
  echo "java:     $(java -version 2>&1 | head -1)"
  echo "braid:    $JAR, repo at $(git -C "$REPO" rev-parse --short HEAD)"
  for t in $TOOLS; do tool_cmd "$t" slow.bin; echo "command $t: ${cmd[*]}"; done
} > "$RESULTS/env.txt"
CSV=$RESULTS/runs.csv
echo "scenario,tool,rep,exit,ok,wall_s,user_s,sys_s,cpu_s,maxrss_mib,busy_before_pct" > "$CSV"
for (( rep = 1; rep <= REPS; rep++ )); do
  for t in $TOOLS; do
    # alternate which file goes first, so a drift of the machine does not favour one
    files="slow even"; (( rep % 2 )) || files="even slow"
    for f in $files; do
      rm -rf "$OUTD"; mkdir -p "$OUTD"
      busy=$(wait_quiet)
      tool_cmd "$t" "$f.bin"
      rc=0; timed "$BENCH_DIR/time.txt" "${cmd[@]}" > "$RESULTS/logs/$t-$f.rep$rep.log" 2>&1 || rc=$?
      [[ -s $RESULTS/logs/$t-$f.rep$rep.log ]] || rm -f "$RESULTS/logs/$t-$f.rep$rep.log"
      read -r wall user sys rss < <(tail -1 "$BENCH_DIR/time.txt")
      ok=yes; [[ $(sha256sum "$OUTD/out.bin" 2>/dev/null | cut -d' ' -f1) == "$SHA" ]] || ok=no
      awk -v t="$t-$f" -v r="$rep" -v rc="$rc" -v ok="$ok" -v w="$wall" -v u="$user" -v y="$sys" -v m="$rss" -v busy="$busy" \
        'BEGIN { printf "slowfirst,%s,%d,%d,%s,%.3f,%.2f,%.2f,%.2f,%.1f,%d\n", t, r, rc, ok, w, u, y, u + y, m / 1024, busy }' >> "$CSV"
      say "rep $rep/$REPS $(printf '%-13s' "$t-$f") exit $rc ok $ok wall $wall s"
    done
  done
done
exec {SERVER[1]}>&-
wait "$SERVER_PID" || true
trap - EXIT
medians "$CSV" wall_s cpu_s > "$RESULTS/medians.csv"
{
  echo "# slowfirst ($(date +%F))"
  echo
  echo "One $SIZE-byte file from the testserver on 127.0.0.1, every connection capped at $RATE B/s;"
  echo "on \`slow.bin\` the connection whose first response starts at byte 0 is held to $SLOW B/s for"
  echo "its whole life. $REPS repetitions. Wall seconds, medians of the runs with the right bytes:"
  echo
  echo '| tool | wall s | CPU s |'
  echo '|---|---|---|'
  tail -n +2 "$RESULTS/medians.csv" | awk -F, '{ printf "| %s | %s | %s |\n", $1, $2, $3 }'
  echo
  echo 'Paired ratio slow/even (wall, within each repetition: median, min, max, pairs):'
  echo
  for t in $TOOLS; do echo "- $t: $(paired_ratio "$CSV" "$t-slow" "$t-even" wall_s)"; done
  echo
  echo "Server: $(tail -1 "$RESULTS/logs/server.log")"
} > "$RESULTS/summary.md"
cat "$RESULTS/summary.md"
