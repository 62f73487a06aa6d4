#!/usr/bin/env bash
# bench/startup.sh - start-up: a 1 MiB download with braid (the launcher, and plain `java -jar`)
# against a hello-world java program started the same two ways (the JVM's own floor), the floor of
# braid's libraries (bench/floor/Floor.java: one SQLite row and one GET with HttpClient 5, with the
# launcher's flags and an AppCDS archive of its own), curl and aria2c, from a private nginx on
# 127.0.0.1. Writes runs.csv, medians.csv and summary.md.
#
# Usage: [VAR=value ...] bench/startup.sh
# Variables [defaults]: SIZE [1M], REPS [10], TOOLS [hello hello-flags floor braid braid-jvm curl aria2c;
#   with TLS=1: hello braid braid-sys curl aria2c], BRAID [launcher copy, as in ranged.sh], TIMEOUT [60],
#   BENCH_DIR [/tmp/braid-bench], PORT [18183], SCENARIO [startup-<SIZE>[-https]], RESULTS, QUIET_PCT [25],
#   QUIET_WAIT [30], TLS [0; 1: HTTPS (TLS 1.3/1.2) with a certificate made for the run: braid, curl and
#   aria2c trust it by their CA options; braid-sys is braid with no --ca-cert, trusting it through the
#   JVM's own trust store (a copy of the JVM's cacerts plus this certificate, as javax.net.ssl.trustStore:
#   the path of a server with a public certificate). The floor is plain http only]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SIZE=${SIZE:-1M} REPS=${REPS:-10} TIMEOUT=${TIMEOUT:-60} TLS=${TLS:-0}
if [[ $TLS == 1 ]]; then TOOLS=${TOOLS:-hello braid braid-sys curl aria2c}; else TOOLS=${TOOLS:-hello hello-flags floor braid braid-jvm curl aria2c}; fi
BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench} PORT=${PORT:-18183}
QUIET_PCT=${QUIET_PCT:-25} QUIET_WAIT=${QUIET_WAIT:-30}
SUFFIX=; [[ $TLS == 1 ]] && SUFFIX=-https
SCENARIO=${SCENARIO:-startup-$SIZE$SUFFIX}
die() { echo "startup.sh: $*" >&2; exit 1; }
say() { echo "startup.sh: $*" >&2; }
source "$HERE/lib.sh"
for c in /usr/bin/time timeout openssl curl aria2c javac numfmt; do command -v "$c" >/dev/null || die "missing $c"; done
BYTES=$(numfmt --from=iec "$SIZE")
SDIR=$BENCH_DIR/server-startup OUTD=$BENCH_DIR/out-startup DATA=$BENCH_DIR/data/startup
mkdir -p "$DATA" "$BENCH_DIR/hello"; chmod a+rx "$BENCH_DIR" "$BENCH_DIR/data" "$DATA"
if [[ -z ${BRAID:-} ]]; then install_braid_copy "$BENCH_DIR/braid-under-test-startup"; BRAID=$BENCH_DIR/braid-under-test-startup/braid; fi
read -r -a braid_cmd <<< "$BRAID"
JAR=$(dirname "${braid_cmd[0]}")/braid.jar
# the launcher's JVM flags, without its archive (which holds braid's classes)
FLAGS=$(sed -n 's/^flags="\(.*\) \$jit \$sqlite"$/\1/p' "$REPO/downloader-cli/src/main/dist/braid")
[[ -n $FLAGS ]] || die "cannot read the launcher's JVM flags"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' > "$BENCH_DIR/hello/Hello.java"
javac -d "$BENCH_DIR/hello" "$BENCH_DIR/hello/Hello.java"
# the floor: compiled against the libraries inside braid.jar, with the launcher's JIT and SQLite
# flags and an AppCDS archive made by one run of its own (an archive takes jars only, so it is packed)
FLOOR=$BENCH_DIR/floor NATIVE=$(dirname "$JAR")/native/$(uname -s)-$(uname -m)
JIT=$(sed -n 's/^\[ -f .* \] && jit="\(.*\)"$/\1/p' "$REPO/downloader-cli/src/main/dist/braid")
JIT=${JIT//\$dir/$(dirname "$JAR")}
rm -rf "$FLOOR"; mkdir -p "$FLOOR/classes"
javac -cp "$JAR" -d "$FLOOR/classes" "$HERE/floor/Floor.java"
jar cf "$FLOOR/floor.jar" -C "$FLOOR/classes" .
# shellcheck disable=SC2206
floor_java=(java $FLAGS $JIT -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off
  -Dorg.sqlite.lib.path="$NATIVE" -Dorg.sqlite.lib.name=libsqlitejdbc.so -Dorg.sqlite.tmpdir="$NATIVE"
  -cp "$FLOOR/floor.jar:$JAR")
if [[ -z ${RESULTS:-} ]]; then
  RESULTS=$HERE/results/$(date +%F)-$SCENARIO
  for i in $(seq 2 99); do [[ -e $RESULTS ]] || break; RESULTS=$HERE/results/$(date +%F)-$SCENARIO-$i; done
fi
mkdir -p "$RESULTS/logs"
FILE=$DATA/file-$SIZE.bin
[[ -s $FILE ]] || { openssl enc -aes-128-ctr -nosalt -K 62726169642d737461727475702d3031 -iv 0 -in /dev/zero 2>/dev/null || true; } | head -c "$BYTES" > "$FILE"
chmod a+r "$FILE"; SHA=$(sha256sum "$FILE" | cut -d' ' -f1)
trap 'stop_nginx' EXIT INT TERM
start_nginx "$DATA"
OUT=$OUTD/out.bin
SCHEME=http tls_braid=() tls_curl=() tls_aria=()
if [[ $TLS == 1 ]]; then
  [[ " $TOOLS " != *" floor "* ]] || die "the floor is plain http only: leave it out of TOOLS with TLS=1"
  SCHEME=https tls_braid=(--ca-cert "$SDIR/cert.pem") tls_curl=(--cacert "$SDIR/cert.pem") tls_aria=(--ca-certificate="$SDIR/cert.pem")
  # the JVM's trust store with the test certificate added, for braid-sys
  cacerts=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/security/cacerts
  [[ -r $cacerts ]] || die "cannot read the JVM's trust store $cacerts"
  rm -f "$SDIR/trust.jks"; cp -L "$cacerts" "$SDIR/trust.jks"; chmod u+w "$SDIR/trust.jks"
  keytool -importcert -noprompt -alias braid-bench -file "$SDIR/cert.pem" -keystore "$SDIR/trust.jks" -storepass changeit \
    > /dev/null || die "keytool could not add the test certificate to a copy of $cacerts"
fi
if [[ " $TOOLS " == *" floor "* ]]; then
  mkdir -p "$OUTD"
  "${floor_java[@]}" -XX:ArchiveClassesAtExit="$FLOOR/floor.jsa" Floor "http://127.0.0.1:$PORT/$(basename "$FILE")?run=floor-training" \
    "$OUT" "$OUTD/floor.db" > "$FLOOR/training.log" 2>&1 || die "the floor's training run failed: $FLOOR/training.log"
fi
tool_cmd() {
  local url="$SCHEME://127.0.0.1:$PORT/$(basename "$FILE")?run=$1&rep=$2"
  case $1 in
    hello)       cmd=(java -cp "$BENCH_DIR/hello" Hello) ;;
    # shellcheck disable=SC2206
    hello-flags) cmd=(java $FLAGS -cp "$BENCH_DIR/hello" Hello) ;;
    floor)       cmd=("${floor_java[@]}" -XX:SharedArchiveFile="$FLOOR/floor.jsa" Floor "$url" "$OUT" "$OUTD/floor.db") ;;
    braid)       cmd=("${braid_cmd[@]}" get "$url" -o "$OUT" --quiet --overwrite --state-db "$OUTD/state.db" "${tls_braid[@]}") ;;
    braid-sys)   cmd=(env "BRAID_JAVA_OPTS=-Djavax.net.ssl.trustStore=$SDIR/trust.jks" "${braid_cmd[@]}" get "$url" -o "$OUT" --quiet
                   --overwrite --state-db "$OUTD/state.db") ;;
    braid-jvm)   cmd=(java -jar "$JAR" get "$url" -o "$OUT" --quiet --overwrite --state-db "$OUTD/state.db" "${tls_braid[@]}") ;;
    curl)        cmd=(curl -sS -f -o "$OUT" "${tls_curl[@]}" "$url") ;;
    aria2c)      cmd=(aria2c -q --allow-overwrite=true --auto-file-renaming=false --file-allocation=none -d "$OUTD" -o out.bin
                   "${tls_aria[@]}" "$url") ;;
    *) die "unknown tool $1" ;;
  esac
}
{
  echo "date:     $(date -Is)"
  echo "scenario: $SCENARIO: one $SIZE file, $REPS reps, tools: $TOOLS"
  echo "host:     $(uname -sr), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM"
  echo "java:     $(java -version 2>&1 | head -1)"
  echo "braid:    $BRAID, repo at $(git -C "$REPO" rev-parse --short HEAD)"
  for t in $TOOLS; do tool_cmd "$t" R; echo "command $t: ${cmd[*]}"; done
} > "$RESULTS/env.txt"
CSV=$RESULTS/runs.csv
echo "scenario,tool,rep,exit,ok,wall_s,user_s,sys_s,cpu_s,maxrss_mib,busy_before_pct" > "$CSV"
read -r -a tools <<< "$TOOLS"
for (( rep = 1; rep <= REPS; rep++ )); do
  n=${#tools[@]}
  for (( k = 0; k < n; k++ )); do
    t=${tools[$(( (k + rep - 1) % n ))]}
    rm -rf "$OUTD"; mkdir -p "$OUTD"
    busy=$(wait_quiet)
    tool_cmd "$t" "$rep"
    rc=0; timed "$BENCH_DIR/time.txt" "${cmd[@]}" > "$RESULTS/logs/$t.rep$rep.log" 2>&1 || rc=$?
    [[ $t == hello* ]] && rm -f "$RESULTS/logs/$t.rep$rep.log"
    [[ -s $RESULTS/logs/$t.rep$rep.log ]] || rm -f "$RESULTS/logs/$t.rep$rep.log"
    read -r wall user sys rss < <(tail -1 "$BENCH_DIR/time.txt")
    ok=yes; [[ $t == hello* ]] || [[ $(sha256sum "$OUT" 2>/dev/null | cut -d' ' -f1) == "$SHA" ]] || ok=no
    awk -v s="$SCENARIO" -v t="$t" -v r="$rep" -v rc="$rc" -v ok="$ok" -v w="$wall" -v u="$user" -v y="$sys" -v m="$rss" -v busy="$busy" \
      'BEGIN { printf "%s,%s,%d,%d,%s,%.3f,%.2f,%.2f,%.2f,%.1f,%d\n", s, t, r, rc, ok, w, u, y, u + y, m / 1024, busy }' >> "$CSV"
    say "rep $rep/$REPS $(printf '%-11s' "$t") exit $rc ok $ok wall $wall s"
  done
done
stop_nginx
medians "$CSV" wall_s cpu_s maxrss_mib > "$RESULTS/medians.csv"
{
  echo "# $SCENARIO ($(date +%F))"
  echo
  echo "One $SIZE file from nginx on 127.0.0.1$([[ $TLS == 1 ]] && echo ' over HTTPS (a certificate made for the run; braid-sys trusts it through the JVM trust store, the others by their CA options)') (braid, curl, aria2c) and a hello-world java program, $REPS"
  echo "repetitions, tools interleaved. \`hello\` = \`java -cp DIR Hello\`; \`hello-flags\` = the same with the"
  echo "launcher's JVM flags ($FLAGS); \`floor\` = bench/floor/Floor.java, the least a program on braid's"
  echo "libraries does (one SQLite row, one GET with HttpClient 5; those flags, the launcher's JIT flags and its own AppCDS archive);"
  echo "\`braid\` = the launcher (those flags + AppCDS archive);"
  echo "\`braid-jvm\` = \`java -jar braid.jar\`. Medians over runs that exited 0 (and with the right sha256)."
  echo
  echo "| tool | wall s | CPU s | peak RSS MiB |"
  echo "|---|---|---|---|"
  tail -n +2 "$RESULTS/medians.csv" | while IFS=, read -r t w c m; do echo "| $t | $w | $c | $m |"; done
  echo
  echo "Ratios taken within each repetition:"
  echo
  echo "| ratio | median | min–max | reps |"
  echo "|---|---|---|---|"
  for pair in "braid hello" "braid-sys hello" "braid hello-flags" "floor hello" "braid floor" "braid-jvm hello" "braid braid-jvm" "braid curl" "braid-sys curl" "braid aria2c"; do
    read -r a b <<< "$pair"
    [[ " $TOOLS " == *" $a "* && " $TOOLS " == *" $b "* ]] || continue
    read -r med lo hi nr < <(paired_ratio "$CSV" "$a" "$b" wall_s); echo "| wall: $a / $b | $med | $lo–$hi | $nr |"
  done
  echo
  echo "Host busy before each run (% of all CPUs, other work): $(cut -d, -f11 "$CSV" | tail -n +2 | sort -n | tr '\n' ' ')"
} > "$RESULTS/summary.md"
[[ -x $HERE/charts.sh ]] && "$HERE/charts.sh" "$RESULTS" || true
say "done: $RESULTS/summary.md"
