#!/usr/bin/env bash
# bench/smallfiles.sh - many small files: braid get -i LIST -j J vs aria2c -j J -i LIST vs
# curl --parallel --parallel-max J, from a private nginx on 127.0.0.1. Writes runs.csv,
# medians.csv and summary.md (files/s, CPU s, peak RSS, connections opened, requests per connection).
#
# Usage: [VAR=value ...] bench/smallfiles.sh
# Variables [defaults]: COUNT files [1000], FSIZE each [100K], JOBS in parallel [16], REPS [5],
#   TOOLS [braid aria2c curl] (also braid-jvm: the same jar under plain `java -jar`; braid-before: `braid`'s
#   command with the launcher BRAID_BEFORE, another build, e.g. the commit before a change, for paired
#   before/after figures (copy it with its native/ and archive first: bench/README.md); braid-daemon:
#   `braid get -i LIST` as the client of a `braid daemon` with its defaults, started before the first run;
#   DAEMON_ARGS [none] adds options to it, e.g. "-j 16"),
#   BRAID [launcher copy, as in ranged.sh], TIMEOUT per run [300], BENCH_DIR [/tmp/braid-bench],
#   PORT [18182], SCENARIO [files<COUNT>x<FSIZE>-j<JOBS>[-https]], RESULTS, QUIET_PCT [25], QUIET_WAIT [30],
#   TLS [0; 1: HTTPS with a certificate made for the run, trusted by each tool's CA option],
#   DAEMON_JAVA_OPTS [none: JVM flags for the daemon alone, e.g. a flight recording],
#   WARMUP [0: batches the daemon runs, untimed, before the first timed one: a resident daemon's JIT
#   has compiled its per-file path long before a batch comes, a fresh one's has not]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
COUNT=${COUNT:-1000} FSIZE=${FSIZE:-100K} JOBS=${JOBS:-16} REPS=${REPS:-5} TLS=${TLS:-0} WARMUP=${WARMUP:-0}
TOOLS=${TOOLS:-braid aria2c curl} TIMEOUT=${TIMEOUT:-300}
BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench} PORT=${PORT:-18182}
QUIET_PCT=${QUIET_PCT:-25} QUIET_WAIT=${QUIET_WAIT:-30}
SUFFIX=; [[ $TLS == 1 ]] && SUFFIX=-https
SCENARIO=${SCENARIO:-files${COUNT}x${FSIZE}-j${JOBS}$SUFFIX}
die() { echo "smallfiles.sh: $*" >&2; exit 1; }
say() { echo "smallfiles.sh: $*" >&2; }
source "$HERE/lib.sh"
for c in /usr/bin/time timeout openssl curl aria2c numfmt sha256sum; do command -v "$c" >/dev/null || die "missing $c: run bench/setup.sh"; done
FBYTES=$(numfmt --from=iec "$FSIZE") || die "FSIZE '$FSIZE' is not a size"
SDIR=$BENCH_DIR/server-small OUTROOT=$BENCH_DIR/out-small
DATA=$BENCH_DIR/data/small-$COUNT-$FSIZE
mkdir -p "$BENCH_DIR/data"; chmod a+rx "$BENCH_DIR" "$BENCH_DIR/data"
if [[ -z ${BRAID:-} ]]; then install_braid_copy "$BENCH_DIR/braid-under-test-small"; BRAID=$BENCH_DIR/braid-under-test-small/braid; fi
read -r -a braid_cmd <<< "$BRAID"
if [[ -z ${RESULTS:-} ]]; then
  RESULTS=$HERE/results/$(date +%F)-$SCENARIO
  for i in $(seq 2 99); do [[ -e $RESULTS ]] || break; RESULTS=$HERE/results/$(date +%F)-$SCENARIO-$i; done
fi
mkdir -p "$RESULTS/logs"

make_small_files "$DATA" "$COUNT" "$FBYTES" "$FSIZE"
# Each run writes into a folder of its own under OUTROOT, which carries ext4's "top of a
# directory tree" flag (chattr +T): its folders are spread over the block groups. In one folder
# emptied between runs, ext4 skips the inodes deleted in the last minutes when it allocates new
# ones, and each run created its 1,000 files more slowly than the one before: aria2c alone went
# from 1.6 to 3.3 s over ten runs in a row (sys 0.7 to 2.3 s), braid's sys from 1.3 to 2.7 s,
# so a tool's time depended on its place in the sequence more than on the tool.
rm -rf "$OUTROOT"; mkdir -p "$OUTROOT"
chattr +T "$OUTROOT" 2>/dev/null || say "WARNING: chattr +T $OUTROOT failed: runs may slow down one after the other (see above)"
daemon_pid=
# the daemon's CPU seconds so far (user + system, from /proc), 0 without a daemon
daemon_cpu() { [[ -n $daemon_pid && -r /proc/$daemon_pid/stat ]] || { echo 0; return; }
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz }' "/proc/$daemon_pid/stat"; }
stop_daemon() { [[ -n $daemon_pid ]] && { kill "$daemon_pid" 2>/dev/null; wait "$daemon_pid" 2>/dev/null || true; daemon_pid=; }; return 0; }
trap 'stop_daemon; stop_nginx' EXIT INT TERM
start_nginx "$DATA"
BASE=http://127.0.0.1:$PORT
tls_braid=() tls_aria=() tls_curl=()
if [[ $TLS == 1 ]]; then
  BASE=https://127.0.0.1:$PORT
  tls_braid=(--ca-cert "$SDIR/cert.pem") tls_aria=(--ca-certificate="$SDIR/cert.pem") tls_curl=(--cacert "$SDIR/cert.pem")
fi
if [[ " $TOOLS " == *" braid-daemon "* ]]; then
  # one engine for all its runs (its CPU and RSS are not in the client's figures), as a user's daemon; its queue (and the store's history) grows by COUNT per run
  rm -rf "$BENCH_DIR"/daemon-small.db*
  read -r -a daemon_args <<< "${DAEMON_ARGS:-}"
  BRAID_JAVA_OPTS=${DAEMON_JAVA_OPTS:-} "${braid_cmd[@]}" daemon "${daemon_args[@]}" -d "$OUTROOT" --state-db "$BENCH_DIR/daemon-small.db" --rpc-listen-port $((PORT + 1)) \
    "${tls_braid[@]}" 2> "$RESULTS/logs/daemon.err" & daemon_pid=$!
  until grep -q "serving aria2 JSON-RPC" "$RESULTS/logs/daemon.err"; do
    kill -0 "$daemon_pid" 2>/dev/null || die "braid daemon did not start: $(cat "$RESULTS/logs/daemon.err")"
    sleep 0.1
  done
fi

tool_cmd() {   # $1 tool, $2 rep: fills cmd; the list files carry ?run=TOOL&rep=N
  local t=$1 r=$2 list=$BENCH_DIR/list-small.txt
  (cd "$DATA" && printf '%s\n' f*.bin) | sed "s|^|$BASE/|; s|\$|?run=$t\&rep=$r|" > "$list"
  case $t in
    braid)     cmd=("${braid_cmd[@]}" get -i "$list" -j "$JOBS" -d "$OUTD" --quiet --overwrite --state-db "$BENCH_DIR/small-state.db" "${tls_braid[@]}") ;;
    braid-daemon) cmd=("${braid_cmd[@]}" get -i "$list" -d "$OUTD" --quiet --state-db "$BENCH_DIR/daemon-small.db") ;;
    braid-before) [[ -n ${BRAID_BEFORE:-} ]] || die "braid-before needs BRAID_BEFORE, the other build's launcher"
               cmd=("$BRAID_BEFORE" get -i "$list" -j "$JOBS" -d "$OUTD" --quiet --overwrite --state-db "$BENCH_DIR/small-state.db" "${tls_braid[@]}") ;;
    braid-jvm) cmd=(java -jar "$(dirname "${braid_cmd[0]}")/braid.jar" get -i "$list" -j "$JOBS" -d "$OUTD" --quiet --overwrite --state-db "$BENCH_DIR/small-state.db" "${tls_braid[@]}") ;;
    aria2c)    cmd=(aria2c -q -j "$JOBS" -i "$list" -d "$OUTD" --allow-overwrite=true --auto-file-renaming=false --file-allocation=none "${tls_aria[@]}") ;;
    curl)      awk -v d="$OUTD" '{ n = $0; sub(/\?.*/, "", n); sub(/.*\//, "", n); print "url = \"" $0 "\""; print "output = \"" d "/" n "\"" }' "$list" > "$BENCH_DIR/curl-small.cfg"
               cmd=(curl -sS -f --no-progress-meter --parallel --parallel-max "$JOBS" -K "$BENCH_DIR/curl-small.cfg" "${tls_curl[@]}") ;;
    *) die "unknown tool $t" ;;
  esac
}
# the daemon's untimed batches, each into a folder removed after it (none unless WARMUP)
if [[ " $TOOLS " == *" braid-daemon "* ]]; then
  for (( w = 1; w <= WARMUP; w++ )); do
    OUTD=$OUTROOT/warmup-$w; mkdir -p "$OUTD"; tool_cmd braid-daemon "warmup$w"
    "${cmd[@]}" > "$RESULTS/logs/warmup.$w.log" 2>&1 || die "warm-up batch $w failed: $(cat "$RESULTS/logs/warmup.$w.log")"
    rm -rf "$OUTD" "$RESULTS/logs/warmup.$w.log"
  done
fi
{
  echo "date:     $(date -Is)"
  echo "scenario: $SCENARIO: $COUNT files of $FSIZE, $JOBS at once, $REPS reps, tools: $TOOLS, daemon warm-up batches: $WARMUP"
  echo "host:     $(uname -sr), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM"
  echo "nginx:    $(nginx -v 2>&1 | sed 's/^nginx version: //')"
  echo "aria2c:   $(aria2c --version | head -1)"
  echo "curl:     $(curl --version | head -1)"
  echo "java:     $(java -version 2>&1 | head -1)"
  echo "braid:    $BRAID ($(timeout 60 "${braid_cmd[@]}" --version 2>&1 | head -1)), repo at $(git -C "$REPO" rev-parse --short HEAD)"
  [[ " $TOOLS " == *" braid-before "* ]] && echo "before:   $BRAID_BEFORE ($(timeout 60 "$BRAID_BEFORE" --version 2>&1 | head -1)), jar sha256 $(sha256sum "$(dirname "$BRAID_BEFORE")/braid.jar" | cut -c1-16)"
  for t in $TOOLS; do OUTD=$OUTROOT/$t-repR; tool_cmd "$t" R; echo "command $t: ${cmd[*]}"; done
} > "$RESULTS/env.txt"

CSV=$RESULTS/runs.csv
echo "scenario,tool,rep,exit,ok,wall_s,user_s,sys_s,cpu_s,maxrss_mib,files_per_s,mib_per_s,requests,connections,max_req_per_conn,busy_before_pct,daemon_cpu_s" > "$CSV"
read -r -a tools <<< "$TOOLS"
for (( rep = 1; rep <= REPS; rep++ )); do
  n=${#tools[@]}
  for (( k = 0; k < n; k++ )); do
    t=${tools[$(( (k + rep - 1) % n ))]}
    OUTD=$OUTROOT/$t-rep$rep
    rm -rf "$BENCH_DIR"/small-state.db*; mkdir -p "$OUTD"; sync
    busy=$(wait_quiet)
    (cd "$DATA" && printf '%s\0' f*.bin | xargs -0 cat > /dev/null)
    tool_cmd "$t" "$rep"
    dcpu0=$(daemon_cpu)
    rc=0; timed "$BENCH_DIR/time.txt" "${cmd[@]}" > "$RESULTS/logs/$t.rep$rep.log" 2>&1 || rc=$?
    dcpu=0; [[ $t == braid-daemon ]] && dcpu=$(awk -v a="$dcpu0" -v b="$(daemon_cpu)" 'BEGIN { printf "%.2f", b - a }')
    [[ -s $RESULTS/logs/$t.rep$rep.log ]] || rm -f "$RESULTS/logs/$t.rep$rep.log"
    read -r wall user sys rss < <(tail -1 "$BENCH_DIR/time.txt")
    ok=no; (cd "$OUTD" && sha256sum --quiet -c "$DATA/SHA256SUMS" > /dev/null 2>&1) && ok=yes
    rm -rf "$OUTD"
    read -r reqs conns maxr < <(awk -v t="run=$t&rep=$rep\"" 'index($0, t) { n++; c[$4] = 1; if ($5 > m) m = $5 } END { k = 0; for (x in c) k++; print n + 0, k, m + 0 }' "$SDIR/logs/access.log")
    awk -v s="$SCENARIO" -v t="$t" -v r="$rep" -v rc="$rc" -v ok="$ok" -v w="$wall" -v u="$user" -v y="$sys" -v m="$rss" \
        -v c="$COUNT" -v b="$FBYTES" -v q="$reqs" -v cn="$conns" -v mx="$maxr" -v busy="$busy" -v dc="$dcpu" \
      'BEGIN { printf "%s,%s,%d,%d,%s,%.2f,%.2f,%.2f,%.2f,%.1f,%.1f,%.1f,%d,%d,%d,%d,%.2f\n", s, t, r, rc, ok, w, u, y, u + y, m / 1024, (w > 0 && ok == "yes") ? c / w : 0, (w > 0 && ok == "yes") ? c * b / 1048576 / w : 0, q, cn, mx, busy, dc }' >> "$CSV"
    say "rep $rep/$REPS $(printf '%-9s' "$t") exit $rc ok $ok wall $wall s cpu $(awk -v u="$user" -v y="$sys" 'BEGIN{print u+y}') s conns $conns"
  done
done
stop_nginx
gzip -c "$SDIR/logs/access.log" > "$RESULTS/access.log.gz"; rm -f "$SDIR/logs/access.log"
cp "$SDIR/nginx.conf" "$RESULTS/"
medians "$CSV" wall_s cpu_s maxrss_mib files_per_s requests connections max_req_per_conn > "$RESULTS/medians.csv"
{
  echo "# $SCENARIO ($(date +%F))"
  echo
  echo "$COUNT files of $FSIZE from nginx on 127.0.0.1$([[ $TLS == 1 ]] && echo ' over HTTPS (TLS 1.3, HTTP/1.1)'), $JOBS at once, $REPS repetitions, tools interleaved"
  echo "(order rotated each repetition). Medians over the runs that exited 0 with every sha256 right;"
  echo "connections = distinct TCP connections nginx logged for the run. Host: $(nproc) CPUs, $(uname -r)."
  echo
  echo "| tool | ok/runs | wall s | files/s | CPU s | peak RSS MiB | requests | connections | max req/conn |"
  echo "|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$RESULTS/medians.csv" | while IFS=, read -r t w c m f q cn mx; do
    okn=$(awk -F, -v t="$t" '$2 == t && $4 == 0 && $5 == "yes"' "$CSV" | wc -l); all=$(awk -F, -v t="$t" '$2 == t' "$CSV" | wc -l)
    echo "| $t | $okn/$all | $w | $f | $c | $m | $q | $cn | $mx |"
  done
  echo
  echo "Ratios taken within each repetition (median, min–max, repetitions):"
  echo
  echo "| ratio | median | min–max | reps |"
  echo "|---|---|---|---|"
  for a in braid braid-jvm braid-daemon braid-before; do for b in aria2c curl; do
    [[ " $TOOLS " == *" $a "* && " $TOOLS " == *" $b "* ]] || continue
    read -r med lo hi n < <(paired_ratio "$CSV" "$a" "$b" files_per_s); echo "| files/s: $a / $b | $med | $lo–$hi | $n |"
    read -r med lo hi n < <(paired_ratio "$CSV" "$a" "$b" cpu_s); echo "| CPU s: $a / $b | $med | $lo–$hi | $n |"
  done; done
  if [[ " $TOOLS " == *" braid "* && " $TOOLS " == *" braid-before "* ]]; then
    read -r med lo hi n < <(paired_ratio "$CSV" braid braid-before wall_s); echo "| wall s: braid / braid-before | $med | $lo–$hi | $n |"
    read -r med lo hi n < <(paired_ratio "$CSV" braid braid-before cpu_s); echo "| CPU s: braid / braid-before | $med | $lo–$hi | $n |"
  fi
  echo
  echo "Host busy before each run (% of all CPUs, other work): $(cut -d, -f16 "$CSV" | tail -n +2 | sort -n | tr '\n' ' ')"
  if [[ " $TOOLS " == *" braid-daemon "* ]]; then
    echo
    echo "braid-daemon's CPU s above is its client's; the daemon's own per run (median): $(awk -F, '$2 == "braid-daemon" && $4 == 0 && $5 == "yes" { print $17 }' "$CSV" | median_of)"
    echo "(daemon options: ${DAEMON_ARGS:-none, its defaults}; untimed batches before the first timed one: $WARMUP). Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  fi
} > "$RESULTS/summary.md"
[[ -x $HERE/charts.sh ]] && "$HERE/charts.sh" "$RESULTS" || true
say "done: $RESULTS/summary.md"
