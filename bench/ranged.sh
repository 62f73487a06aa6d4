#!/usr/bin/env bash
# bench/ranged.sh - time braid against aria2c, axel and curl on one file from a private
# nginx on 127.0.0.1, and write runs.csv + summary.md.
#
# Usage: [VAR=value ...] bench/ranged.sh
#   e.g.  RATE=4m SIZE=256M bench/ranged.sh        (4 MiB/s per request: parallelism pays)
#         SIZE=1G bench/ranged.sh                   (no limit: client CPU and disk bound)
#
# Variables (defaults in brackets):
#   SIZE      test file size, K/M/G = powers of 1024 [256M]
#   RATE      nginx limit_rate, e.g. 4m = 4 MiB/s; empty or 0 = unlimited []
#             nginx applies it per REQUEST, and the last min(RATE, 2 MiB) of every request
#             are not throttled: many small requests escape it (see README.md)
#   REPS      repetitions; in each one every tool runs once, order rotated per rep [3]
#   TOOLS     subset of: braid-c1 braid-c8 braid aria2c axel curl (any braid-cN works), and
#             braid-jvm: the same jar as `braid` under plain `java -jar` (no launcher flags, no CDS)
#             braid-base: another build, BASE_JAR, with its own copy of the launcher and archive,
#             run as `braid` is: a before/after pair in one invocation
#             [all of them; braid ones are skipped with a warning if the jar is missing]
#             With TLS=1 also: braid-h2 (--http2), braid-h1 (--http1.1), braid-auto (--http-auto,
#             with --debug, ONE state database for all its repetitions so that it can learn), curl-h2
#             (curl --http2); `curl` then runs with --http1.1, since curl asks for HTTP/2 by default
#   TLS       0 = plain http []; 1 = HTTPS with HTTP/2 offered by ALPN (nginx `ssl http2`), TLS
#             1.2/1.3, session cache and tickets, a certificate made for the run for the address
#             the tools use; braid, curl and aria2c trust it by their CA options, axel cannot (it
#             runs with --insecure)
#   BRAID     braid command prefix [the launcher <repo>/downloader-cli/target/braid, run from a
#             copy: launcher + jar copied and its AppCDS archive re-made for the copy, so a rebuild
#             during the benchmark does not mix builds]; e.g. BRAID="java -jar /path/braid.jar"
#             for the plain JVM without the launcher's flags
#   BASE_JAR  the jar of braid-base, e.g. an earlier commit's downloader-cli/target/braid.jar copied
#             aside [none]
#   TIMEOUT   seconds per run, then SIGTERM (SIGKILL 5 s later) [180]
#   BENCH_DIR scratch directory: test data, nginx, downloads [/tmp/braid-bench]
#   PORT      nginx port on 127.0.0.1 [18181]
#   SCENARIO  name used in the results directory [<SIZE>-rate<RATE> or <SIZE>-unlimited]
#   RESULTS   results directory [bench/results/<YYYY-MM-DD>-<SCENARIO>, -2, -3... if taken]
#   QUIET_PCT, QUIET_WAIT  before each run wait at most QUIET_WAIT s [30] for host CPU
#             busy below QUIET_PCT % [25]; 0 = do not wait
#   KEEP_STATE 1 = keep braid's state database across the runs of this invocation (it starts
#             empty), so from the second braid run on the host is remembered (its connection
#             count, and the connections warmed during the probe); empty = a fresh one per run []
#
# Emulated WAN link (bench/lossy.sh sets these; root only; see bench/link.sh):
#   LINK      empty = nginx on 127.0.0.1 [];  auto, netem or tun = nginx in a network namespace
#             behind an emulated link: netem (kernel), tun (bench/wanlink.c, user space), auto
#             (netem if the kernel has it, else tun)
#   LINK_RTT  round-trip time, ms [80]        LINK_LOSS  random loss each way, % [0.5]
#   LINK_RATE bandwidth each way, Mbit/s; 0 = none [200]
#   LINK_JITTER  ± ms on each one-way delay [0]   LINK_QUEUE  bottleneck buffer, ms of link time [= LINK_RTT]
#   SERVER_CC TCP congestion control of nginx's namespace (the sender) [reno]
#
# Traffic goes only to 127.0.0.1 (or, with LINK, to a private namespace on this host). nginx is
# started with its own config and pid file under BENCH_DIR and is stopped on exit (only the pid
# in that file is signalled); the namespace and the link are removed on exit.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)

SIZE=${SIZE:-256M}
RATE=${RATE:-}
REPS=${REPS:-3}
TIMEOUT=${TIMEOUT:-180}
BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench}
PORT=${PORT:-18181}
QUIET_PCT=${QUIET_PCT:-25}
QUIET_WAIT=${QUIET_WAIT:-30}
TLS=${TLS:-0}
BRAID_JAR=$REPO/downloader-cli/target/braid.jar
BRAID_IS_DEFAULT=0
if [[ -z ${BRAID:-} ]]; then BRAID="$BENCH_DIR/braid-under-test/braid"; BRAID_IS_DEFAULT=1; fi
ALL_TOOLS="braid-c1 braid-c8 braid aria2c axel curl"
TOOLS_GIVEN=${TOOLS:-}
TOOLS=${TOOLS:-$ALL_TOOLS}
PEER_N=${PEER_N:-16}          # connections for aria2c and axel (aria2c allows at most 16)
KEY=62726169642d62656e63682d64617461   # "braid-bench-data": AES key of the test data

die() { echo "ranged.sh: $*" >&2; exit 1; }
# shellcheck source=bench/lib.sh
source "$HERE/lib.sh"
say() { echo "ranged.sh: $*" >&2; }

# --- check the settings ------------------------------------------------------------------
[[ $REPS =~ ^[0-9]+$ ]] && (( REPS >= 1 && REPS <= 50 )) || die "REPS must be 1..50"
[[ $TIMEOUT =~ ^[0-9]+$ ]] && (( TIMEOUT >= 1 && TIMEOUT <= 3600 )) || die "TIMEOUT must be 1..3600 s"
[[ $PORT =~ ^[0-9]+$ ]] && (( PORT >= 1024 && PORT <= 65535 )) || die "PORT must be 1024..65535"
[[ $QUIET_WAIT =~ ^[0-9]+$ && $QUIET_PCT =~ ^[0-9]+$ ]] || die "QUIET_WAIT and QUIET_PCT are integers"
[[ $TLS == 0 || $TLS == 1 ]] || die "TLS must be 0 or 1"
[[ $PEER_N =~ ^[0-9]+$ ]] && (( PEER_N >= 1 && PEER_N <= 16 )) || die "PEER_N must be 1..16 (aria2c allows at most 16)"
BYTES=$(numfmt --from=iec "$SIZE" 2>/dev/null) || die "SIZE '$SIZE' is not a size like 256M or 1G"
(( BYTES >= 1048576 )) || die "SIZE must be at least 1M"
[[ $RATE == 0 ]] && RATE=""
RATE_BYTES=0
FREE_BYTES=0                  # bytes of each request that nginx does not throttle (see below)
if [[ -n $RATE ]]; then
  [[ $RATE =~ ^[0-9]+[kKmM]?$ ]] || die "RATE '$RATE' must be like 4m, 500k or a byte count"
  case $RATE in
    *[kK]) RATE_BYTES=$(( ${RATE%?} * 1024 )) ;;
    *[mM]) RATE_BYTES=$(( ${RATE%?} * 1048576 )) ;;
    *)     RATE_BYTES=$RATE ;;
  esac
  (( RATE_BYTES > 0 )) || die "RATE must be positive"
  FREE_BYTES=$(( RATE_BYTES < 2097152 ? RATE_BYTES : 2097152 ))   # min(RATE, sendfile_max_chunk)
fi
LINK=${LINK:-}
LINK_RTT=${LINK_RTT:-80}
LINK_LOSS=${LINK_LOSS:-0.5}
LINK_RATE=${LINK_RATE:-200}
LINK_JITTER=${LINK_JITTER:-0}
LINK_QUEUE=${LINK_QUEUE:-$LINK_RTT}
SERVER_CC=${SERVER_CC:-reno}
HOST=127.0.0.1                # where nginx listens; the server end of the link with LINK
if [[ -n $LINK ]]; then
  [[ $LINK =~ ^(auto|netem|tun)$ ]] || die "LINK must be empty, auto, netem or tun"
  num='^[0-9]+([.][0-9]+)?$'
  for v in LINK_RTT LINK_LOSS LINK_RATE LINK_JITTER LINK_QUEUE; do
    [[ ${!v} =~ $num ]] || die "$v='${!v}' must be a number"
  done
  awk -v l="$LINK_LOSS" 'BEGIN{exit !(l < 50)}' || die "LINK_LOSS is a percentage below 50"
  [[ $SERVER_CC =~ ^[a-z0-9_]+$ ]] || die "SERVER_CC '$SERVER_CC' is not a congestion control name"
  # shellcheck source=bench/link.sh
  source "$HERE/link.sh"
  HOST=$SERVER_IP
fi
SCENARIO=${SCENARIO:-$SIZE-$([[ -n $LINK ]] && echo "rtt${LINK_RTT}-loss${LINK_LOSS}-${LINK_RATE}mbit-$SERVER_CC" ||
  { [[ -n $RATE ]] && echo "rate$RATE" || echo unlimited; })$([[ $TLS == 1 ]] && echo -https || true)}
[[ $SCENARIO =~ ^[A-Za-z0-9._-]+$ ]] || die "SCENARIO may only use letters, digits, . _ -"

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
for c in "$NGINX" /usr/bin/time timeout openssl curl numfmt; do
  command -v "$c" >/dev/null 2>&1 || die "missing $c: run bench/setup.sh"
done

tools=()
for t in $TOOLS; do
  case $t in
    braid|braid-jvm|braid-c[1-9]|braid-c[1-9][0-9]) ;;
    braid-base) [[ -s ${BASE_JAR:-} ]] || die "braid-base runs the build at BASE_JAR: set it to a braid.jar" ;;
    aria2c|axel|curl) command -v "$t" >/dev/null || die "$t is not installed: run bench/setup.sh" ;;
    # HTTP/2 is negotiated by ALPN in the TLS handshake; over plain http braid never uses it
    braid-h2|braid-auto) [[ $TLS == 1 ]] || die "$t compares HTTP versions over https: set TLS=1" ;;
    braid-h1) ;;
    curl-h2) [[ $TLS == 1 ]] || die "curl-h2 needs TLS=1"
             curl -V | grep -qw HTTP2 || die "this curl has no HTTP/2 (no nghttp2): curl-h2 cannot run" ;;
    *) die "unknown tool '$t' (known: $ALL_TOOLS, braid-cN; with TLS=1 braid-h1 braid-h2 braid-auto curl-h2)" ;;
  esac
  if [[ $t == braid* && $BRAID_IS_DEFAULT == 1 && ! -s $BRAID_JAR ]]; then
    [[ -z $TOOLS_GIVEN ]] || die "$BRAID_JAR not found: build it (mvn -q -DskipTests package) or set BRAID"
    say "WARNING: $BRAID_JAR not found, skipping $t (build it with: mvn -q -DskipTests package)"
    continue
  fi
  tools+=("$t")
done
(( ${#tools[@]} > 0 )) || die "no tools to run"

# --- scratch directories -------------------------------------------------------------------
DATA=$BENCH_DIR/data
SDIR=$BENCH_DIR/server
OUTD=$BENCH_DIR/out           # wiped before every run: output, .aria2/.st state, braid state db
STATED=$BENCH_DIR/state       # braid's state db with KEEP_STATE=1: wiped once, at the start
KEEP_STATE=${KEEP_STATE:-}
[[ -z $KEEP_STATE || $KEEP_STATE == 1 ]] || die "KEEP_STATE must be empty or 1"
TMPD=$BENCH_DIR/tmp
mkdir -p "$DATA" "$SDIR/tmp" "$TMPD"
chmod a+rx "$BENCH_DIR" "$DATA"          # nginx workers run as nobody when we are root

# TLS: a certificate made for this run, for the address the tools connect to (127.0.0.1, or the
# server end of the link), so every tool that can checks it properly against it as its CA.
tls_braid=() tls_curl=() tls_aria=() tls_axel=() curl_h1=()
SCHEME=http
if [[ $TLS == 1 ]]; then
  make_test_cert "$SDIR" "$HOST"
  tls_braid=(--ca-cert "$SDIR/cert.pem") tls_curl=(--cacert "$SDIR/cert.pem")
  tls_aria=(--ca-certificate="$SDIR/cert.pem")
  tls_axel=(--insecure)       # axel has no option for a CA file: it checks nothing here
  curl_h1=(--http1.1)         # curl asks for HTTP/2 over https by itself; `curl` stays HTTP/1.1
  SCHEME=https
fi

# Run a private copy of the jar: the build tree may be rebuilt while the benchmark runs.
BRAID_BUILD="(none)"
if [[ $BRAID_IS_DEFAULT == 1 && -s $BRAID_JAR ]]; then
  install_braid_copy "$BENCH_DIR/braid-under-test"
  BRAID_BUILD="$BRAID_JAR, built $(date -r "$BRAID_JAR" -Is), sha256 $(openssl dgst -sha256 -r "$BENCH_DIR/braid-under-test/braid.jar" | cut -c1-16)…, launcher with AppCDS archive"
fi
BASE_BUILD=""
for t in "${tools[@]}"; do
  [[ $t == braid-base ]] || continue
  install_braid_copy "$BENCH_DIR/braid-base" "$BASE_JAR"
  BASE_BUILD="$BASE_JAR, built $(date -r "$BASE_JAR" -Is), sha256 $(openssl dgst -sha256 -r "$BASE_JAR" | cut -c1-16)…, launcher with AppCDS archive"
done
read -r -a braid_cmd <<< "$BRAID"
GIT_REV=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo "?")
[[ -n $(git -C "$REPO" status --porcelain --untracked-files=no 2>/dev/null) ]] && GIT_REV+=" (with uncommitted changes)"

avail=$(df -B1 --output=avail "$BENCH_DIR" | tail -1)
(( avail > 2 * BYTES + 268435456 )) || die "need $(( (2 * BYTES) >> 20 )) MiB + 256 MiB free in $BENCH_DIR"

if [[ -z ${RESULTS:-} ]]; then
  RESULTS=$HERE/results/$(date +%F)-$SCENARIO
  for i in $(seq 2 99); do [[ -e $RESULTS ]] || break; RESULTS=$HERE/results/$(date +%F)-$SCENARIO-$i; done
  [[ ! -e $RESULTS ]] || die "no free results directory name for $SCENARIO today"
fi
mkdir -p "$RESULTS/logs"

# --- test data: AES-128-CTR keystream (fixed key, zero IV), so identical on every machine ----
FILE=$DATA/braid-bench-$SIZE.bin
if [[ -s $FILE.sha256 && $(stat -c %s "$FILE" 2>/dev/null || echo 0) == "$BYTES" ]]; then
  say "test file exists: $FILE"
else
  say "creating $FILE ($BYTES bytes)"
  # head closes the pipe when it has enough; openssl then fails with EPIPE, which is expected
  { openssl enc -aes-128-ctr -nosalt -K "$KEY" -iv 00000000000000000000000000000000 \
      -in /dev/zero 2>/dev/null || true; } | head -c "$BYTES" > "$FILE.tmp"
  [[ $(stat -c %s "$FILE.tmp") == "$BYTES" ]] || die "could not create $FILE"
  mv "$FILE.tmp" "$FILE"
  openssl dgst -sha256 -r "$FILE" | cut -d' ' -f1 > "$FILE.sha256"
fi
chmod a+r "$FILE"
SHA=$(cat "$FILE.sha256")
NAME=$(basename "$FILE")

# --- nginx -------------------------------------------------------------------------------------
nginx_pid() {   # prints the pid of our nginx master if it is running
  local pid
  [[ -s $SDIR/nginx.pid ]] || return 1
  pid=$(cat "$SDIR/nginx.pid" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ && $(cat "/proc/$pid/comm" 2>/dev/null) == nginx ]] || return 1
  [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]] || return 1   # exited, not yet reaped
  echo "$pid"
}
stop_nginx() {
  local pid i
  pid=$(nginx_pid) || return 0
  kill -QUIT "$pid" 2>/dev/null || true          # graceful: finishes and logs open requests
  for i in $(seq 1 50); do nginx_pid >/dev/null || return 0; sleep 0.1; done
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 20); do nginx_pid >/dev/null || return 0; sleep 0.1; done
  say "nginx $pid did not stop"
}
cleanup() {
  stop_nginx
  [[ -z $LINK ]] || link_down
  rm -rf "$OUTD" "$TMPD" "$STATED" "$BENCH_DIR/braid-under-test" "$BENCH_DIR/braid-base" "${AUTO_DIR:-}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

write_nginx_conf() {
  local user_line="" rate_lines="# no limit_rate (RATE is empty)" listen="listen $HOST:$PORT;"
  [[ $(id -u) == 0 ]] && user_line="user nobody $(id -gn nobody 2>/dev/null || echo nogroup);"
  if [[ -n $RATE ]]; then
    # Per request, not per connection. nginx sends at most sendfile_max_chunk (or what the
    # rate allows, RATE x (seconds since the request started + 1)) at a time, then waits
    # until the rate is met; the last piece of a request is never waited for. So each request
    # gets min(RATE, sendfile_max_chunk) bytes free. 2m is the default since nginx 1.21.4;
    # set here so that older versions behave the same.
    rate_lines="limit_rate $RATE;
        limit_rate_after 0;
        sendfile_max_chunk 2m;"
  fi
  if [[ $TLS == 1 ]]; then
    # as a CDN would: HTTP/2 offered by ALPN next to HTTP/1.1, TLS 1.2 and 1.3, resumption by
    # session cache and by tickets (nginx 1.22 syntax: http2 on the listen line)
    listen="listen $HOST:$PORT ssl http2;
        ssl_certificate $SDIR/cert.pem;
        ssl_certificate_key $SDIR/key.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:bench:4m;
        ssl_session_tickets on;"
  fi
  cat > "$SDIR/nginx.conf" <<EOF
# written by bench/ranged.sh; started as: nginx -p $SDIR/ -e $SDIR/error.log -c $SDIR/nginx.conf
$user_line
worker_processes auto;
pid $SDIR/nginx.pid;
error_log $SDIR/error.log warn;
events { worker_connections 1024; }
http {
    default_type application/octet-stream;
    # one line per request, '|'-separated, parsed by ranged.sh:
    # time|status|body bytes|connection id|requests on this connection|request time|Range|request|user agent
    log_format bench '\$msec|\$status|\$body_bytes_sent|\$connection|\$connection_requests|'
                     '\$request_time|\$http_range|\$request|\$http_user_agent';
    access_log $SDIR/access.log bench;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65s;
    keepalive_requests 100000;
    etag on;
    $rate_lines
    client_body_temp_path $SDIR/tmp/body;
    proxy_temp_path $SDIR/tmp/proxy;
    fastcgi_temp_path $SDIR/tmp/fastcgi;
    uwsgi_temp_path $SDIR/tmp/uwsgi;
    scgi_temp_path $SDIR/tmp/scgi;
    server {
        $listen
        root $DATA;
        location / { }
    }
}
EOF
}

stop_nginx                          # a leftover of an interrupted earlier run (our pid file only)
if [[ -z $LINK ]] && (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then die "port $PORT is in use; set PORT"; fi
in_server_ns=()                    # nginx runs inside the link's namespace with LINK
if [[ -n $LINK ]]; then
  link_up
  say "link: $(link_describe)"
  in_server_ns=(ip netns exec "$NS")
fi
write_nginx_conf
rm -f "$SDIR/access.log" "$SDIR/error.log"
"${in_server_ns[@]}" "$NGINX" -p "$SDIR/" -e "$SDIR/error.log" -c "$SDIR/nginx.conf" || die "nginx did not start ($SDIR/error.log)"
BASE=$SCHEME://$HOST:$PORT
for i in $(seq 1 50); do
  code=$(curl -s "${tls_curl[@]}" -o /dev/null -w '%{http_code}' -r 0-0 "$BASE/$NAME" || true)
  [[ $code == 206 ]] && break
  [[ $code == 403 ]] && die "nginx answers 403: its workers (user nobody) cannot read $DATA; choose another BENCH_DIR"
  (( i < 50 )) || die "nginx does not serve $BASE/$NAME (HTTP $code; $(tail -3 "$SDIR/error.log" 2>/dev/null))"
  sleep 0.1
done
[[ -z $LINK ]] || sleep 1         # a lost SYN of the probe above is retried after 1 s; let it settle
HEADERS=$(curl -sSI "${tls_curl[@]}" "$BASE/$NAME" | tr -d '\r')

# With a rate limit: time single ranged requests of RATE/2, RATE, 2 RATE and 4 RATE bytes on
# fresh connections, to show what the limit really does per request (not tagged as a run).
PROBE=""
if [[ -n $RATE ]]; then
  for mult in 0.5 1 2 4; do
    len=$(awk -v r="$RATE_BYTES" -v m="$mult" 'BEGIN{printf "%.0f", r * m}')
    (( len >= 1 && len <= BYTES )) || continue
    secs=$(curl -s "${tls_curl[@]}" -r "0-$(( len - 1 ))" -o /dev/null --max-time 120 -w '%{time_total}' "$BASE/$NAME?probe" || echo "-")
    PROBE+=$(awk -v l="$len" -v s="$secs" -v f="$FREE_BYTES" -v r="$RATE_BYTES" 'BEGIN{
      e = (l > f) ? (l - f) / r : 0
      printf "| %.2f | %s | %.2f | %s |\n", l / 1048576, (s == "-") ? s : sprintf("%.2f", s), e,
             (s + 0 > 0) ? sprintf("%.1f", l / 1048576 / s) : "-" }')$'\n'
  done
fi

# With a link: what it does to a fresh connection (TCP connect = one RTT, plus 1 s per lost SYN)
# and to one 4 MiB request (slow start and loss on one connection), before the runs.
LINK_PROBE=""
if [[ -n $LINK ]]; then
  for i in 1 2 3; do
    LINK_PROBE+=$(curl -s "${tls_curl[@]}" -o /dev/null --max-time 60 -r 0-4194303 -w '%{time_connect} %{time_total} %{size_download}' "$BASE/$NAME?probe" |
      awk '{ printf "| %.0f | %.2f | %.2f |\n", $1 * 1000, $2, ($2 > 0) ? $3 / 1048576 / $2 : 0 }' || echo "| - | - | - |")$'\n'
  done
fi

# --- the tools ---------------------------------------------------------------------------------
OUT=$OUTD/download.bin
STATE_DB=$OUTD/braid-state.db
if [[ -n $KEEP_STATE ]]; then
  rm -rf "$STATED"; mkdir -p "$STATED"
  STATE_DB=$STATED/braid-state.db
fi
# braid-auto learns per host which HTTP version is faster and remembers it in its state database
# (host_protocols), so it keeps ONE database through all its repetitions of this invocation
# (outside OUTD, which is wiped before every run); it starts empty, knowing nothing of the host.
AUTO_DIR=$BENCH_DIR/auto-state
AUTO_DB=$AUTO_DIR/braid-auto-state.db
rm -rf "$AUTO_DIR"; mkdir -p "$AUTO_DIR"
URL_BASE=$BASE/$NAME
tool_conns() {
  case $1 in
    braid|braid-jvm|braid-base|braid-h1) echo default ;; braid-h2) echo "default (streams on 1)" ;; braid-auto) echo "default, auto" ;;
    braid-c*) echo "${1#braid-c}" ;; aria2c|axel) echo $PEER_N ;; curl|curl-h2) echo 1 ;;
  esac
}
# fills the array cmd; $2 = URL
tool_cmd() {
  local t=$1 url=$2
  case $t in
    braid)    cmd=("${braid_cmd[@]}" get "$url" -o "$OUT" --quiet --overwrite --state-db "$STATE_DB" "${tls_braid[@]}") ;;
    braid-base) cmd=("$BENCH_DIR/braid-base/braid" get "$url" -o "$OUT" --quiet --overwrite --state-db "$STATE_DB" "${tls_braid[@]}") ;;
    braid-jvm) cmd=(java -jar "$BENCH_DIR/braid-under-test/braid.jar" get "$url" -o "$OUT" --quiet --overwrite --state-db "$STATE_DB" "${tls_braid[@]}") ;;
    braid-c*) cmd=("${braid_cmd[@]}" get "$url" -o "$OUT" -c "${t#braid-c}" --quiet --overwrite --state-db "$STATE_DB" "${tls_braid[@]}") ;;
    braid-h1) cmd=("${braid_cmd[@]}" get "$url" -o "$OUT" --http1.1 --quiet --overwrite --state-db "$STATE_DB" "${tls_braid[@]}") ;;
    braid-h2) cmd=("${braid_cmd[@]}" get "$url" -o "$OUT" --http2 --quiet --overwrite --state-db "$STATE_DB" "${tls_braid[@]}") ;;
    # --debug: its log then says which version it chose and why (kept in logs/)
    braid-auto) cmd=("${braid_cmd[@]}" get "$url" -o "$OUT" --http-auto --debug --quiet --overwrite --state-db "$AUTO_DB" "${tls_braid[@]}") ;;
    aria2c)   cmd=(aria2c -q -x$PEER_N -s$PEER_N -k1M --file-allocation=none --allow-overwrite=true
                   --auto-file-renaming=false "${tls_aria[@]}" -d "$OUTD" -o "$(basename "$OUT")" "$url") ;;
    axel)     cmd=(axel -q -n $PEER_N "${tls_axel[@]}" -o "$OUT" "$url") ;;
    curl)     cmd=(curl -sS -f "${curl_h1[@]}" "${tls_curl[@]}" -o "$OUT" "$url") ;;
    curl-h2)  cmd=(curl -sS -f --http2 "${tls_curl[@]}" -o "$OUT" "$url") ;;
  esac
}
tool_version() {
  case $1 in
    braid*) timeout 60 "${braid_cmd[@]}" --version 2>&1 | head -3 | tr '\n' ' ' || true ;;
    aria2c) aria2c --version | head -1 ;;
    axel)   axel --version | head -1 ;;
    curl*)  curl --version | head -1 ;;
  esac
}

cpu_stat() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9; exit}' /proc/stat; }
busy_since() { awk -v b0="$1" -v t0="$2" -v b1="$3" -v t1="$4" 'BEGIN{printf "%.0f", (t1>t0) ? 100*(b1-b0)/(t1-t0) : 0}'; }
# wait (at most QUIET_WAIT s) until the host is less than QUIET_PCT % busy; print the last value
wait_quiet() {
  local i b0 t0 b1 t1 busy=0
  for (( i = 0; i < QUIET_WAIT; i++ )); do
    read -r b0 t0 < <(cpu_stat); sleep 1; read -r b1 t1 < <(cpu_stat)
    busy=$(busy_since "$b0" "$t0" "$b1" "$t1")
    (( busy < QUIET_PCT )) && break
  done
  echo "$busy"
}

# --- record the environment ----------------------------------------------------------------------
{
  echo "date:      $(date -Is)"
  echo "scenario:  $SCENARIO"
  echo "file:      $URL_BASE  $BYTES bytes  sha256 $SHA"
  echo "settings:  SIZE=$SIZE RATE=${RATE:-none} REPS=$REPS TIMEOUT=$TIMEOUT TOOLS='${tools[*]}' QUIET_PCT=$QUIET_PCT QUIET_WAIT=$QUIET_WAIT$([[ -n $LINK ]] && echo " LINK=$LINK LINK_RTT=$LINK_RTT LINK_LOSS=$LINK_LOSS LINK_RATE=$LINK_RATE LINK_JITTER=$LINK_JITTER LINK_QUEUE=$LINK_QUEUE SERVER_CC=$SERVER_CC")"
  echo "host:      $(uname -sr), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM"
  echo "disk:      $(df -h --output=source,fstype,size "$BENCH_DIR" | tail -1)  ($BENCH_DIR)"
  echo "tcp cc:    $(sysctl -n net.ipv4.tcp_congestion_control 2>/dev/null || echo '?')$([[ -n $LINK ]] && echo " (client side); server namespace: $(nsx sysctl -n net.ipv4.tcp_congestion_control), tcp_wmem $(nsx sysctl -n net.ipv4.tcp_wmem | tr '\t' ' '), tcp_no_metrics_save $(nsx sysctl -n net.ipv4.tcp_no_metrics_save)")"
  if [[ -n $LINK ]]; then
    echo "link:      LINK=$LINK: $(link_describe)"
    [[ -n $NETEM_NOTE ]] && echo "           $NETEM_NOTE"
    echo "           client $CLIENT_IP ($CDEV) <-> server $SERVER_IP ($SDEV in network namespace $NS)"
  fi
  echo "nginx:     $("$NGINX" -v 2>&1 | sed 's/^nginx version: //')"
  if [[ $TLS == 1 ]]; then
    echo "tls:       https, nginx 'listen ... ssl http2', TLSv1.2 TLSv1.3, session cache + tickets; certificate made for this run:"
    echo "           $(openssl x509 -in "$SDIR/cert.pem" -noout -subject -ext subjectAltName 2>/dev/null | tr '\n' ' ' | tr -s ' ')"
    echo "           braid --ca-cert, curl --cacert, aria2c --ca-certificate trust it; axel --insecure (no CA option)"
    echo "           braid-auto: one state database for all its repetitions ($AUTO_DB), --debug"
    echo "           ALPN: $(curl -sS "${tls_curl[@]}" -o /dev/null -w 'curl --http2 got HTTP/%{http_version}' --http2 -r 0-0 "$URL_BASE?probe" 2>&1)"
  fi
  echo "java:      $(java -version 2>&1 | head -1 || echo none)"
  echo "repo:      $REPO at $GIT_REV"
  echo "braid jar: $BRAID_BUILD"
  [[ -z $BASE_BUILD ]] || echo "braid-base: $BASE_BUILD"
  for t in "${tools[@]}"; do
    tool_cmd "$t" "$URL_BASE?run=$t&rep=R"
    echo "$t: $(tool_version "$t")"
    echo "    ${cmd[*]}"
  done
  echo
  if [[ -n $PROBE ]]; then
    echo "limit_rate probe (one request per line): MiB | seconds | predicted seconds | MiB/s"
    echo "$PROBE" | sed 's/^/    /'
  fi
  if [[ -n $LINK_PROBE ]]; then
    echo "link probe (one 4 MiB request per line, fresh connection): connect ms | seconds | MiB/s"
    echo "$LINK_PROBE" | sed 's/^/    /'
  fi
  echo "response headers (HEAD $URL_BASE):"
  echo "$HEADERS" | sed 's/^/    /'
} > "$RESULTS/env.txt"
cp "$SDIR/nginx.conf" "$RESULTS/nginx.conf"

# --- the runs ------------------------------------------------------------------------------------
TIMING=$TMPD/timing.csv
: > "$TIMING"
ntools=${#tools[@]}
say "$SCENARIO: $URL_BASE (${RATE:+limit_rate $RATE per request, }$REPS reps, tools: ${tools[*]})"
say "results: $RESULTS"
if [[ -n $RATE ]]; then
  single=$(( BYTES / RATE_BYTES ))
  say "note: limit_rate is per request, and the last $(( FREE_BYTES >> 10 )) KiB of every request are not" \
      "throttled; 1 connection, 1 request needs about $(( (BYTES - FREE_BYTES) / RATE_BYTES )) s"
  (( single + 5 < TIMEOUT )) || say "WARNING: single-connection tools will hit TIMEOUT=$TIMEOUT s; raise TIMEOUT"
fi
for rep in $(seq 1 "$REPS"); do
  for (( k = 0; k < ntools; k++ )); do
    t=${tools[$(( (k + rep - 1) % ntools ))]}      # rotate the order so no tool always goes first
    url="$URL_BASE?run=$t&rep=$rep"                 # tags this run's requests in access.log
    tool_cmd "$t" "$url"
    rm -rf "$OUTD"; mkdir -p "$OUTD"                # no output, no .aria2/.st/state db left over
    sync
    busy_before=$(wait_quiet)
    cat "$FILE" > /dev/null                         # source back into the page cache
    log=$RESULTS/logs/$t.rep$rep.log
    echo "# $(date +%T) ${cmd[*]}" > "$TMPD/cmdline"
    [[ -z $LINK ]] || read -r lp0 ld0 lc0 < <(link_counters)
    read -r b0 t0 < <(cpu_stat)
    launch=$(date +%s.%N); started=$(date +%T)
    set +e
    /usr/bin/time -f '%e %U %S %M' -o "$TMPD/time.txt" \
      timeout -k 5 "$TIMEOUT" "${cmd[@]}" < /dev/null > "$log" 2>&1
    rc=$?
    set -e
    read -r b1 t1 < <(cpu_stat)
    busy=$(busy_since "$b0" "$t0" "$b1" "$t1")
    linkcols=""                                     # packets through the link, dropped, emulator CPU s
    if [[ -n $LINK ]]; then
      read -r lp1 ld1 lc1 < <(link_counters)
      linkcols=,$(( lp1 - lp0 )),$(( ld1 - ld0 )),$(awk -v a="$lc0" -v b="$lc1" 'BEGIN{printf "%.2f", b - a}')
    fi
    read -r wall usr sys rss < <(tail -1 "$TMPD/time.txt")
    got=$(stat -c %s "$OUT" 2>/dev/null || echo 0)
    ok=no
    if [[ $got == "$BYTES" ]] && [[ $(openssl dgst -sha256 -r "$OUT" | cut -d' ' -f1) == "$SHA" ]]; then ok=yes; fi
    if [[ -s $log ]]; then { cat "$TMPD/cmdline"; cat "$log"; } > "$log.tmp"; mv "$log.tmp" "$log"; else rm -f "$log"; fi
    echo "$t,$rep,$rc,$wall,$usr,$sys,$rss,$ok,$got,$busy_before,$busy,$launch,$started$linkcols" >> "$TIMING"
    if [[ $t == braid-auto ]]; then
      # what it chose (its --debug lines naming the version) and what it remembers afterwards
      { echo "rep $rep ($started, exit $rc, wall $wall s):"
        grep -iE 'HTTP/(1\.1|2)' "$log" 2>/dev/null | grep -v '^#' | sed 's/^/    said: /' | head -5 || true
        if command -v sqlite3 >/dev/null && [[ -s $AUTO_DB ]]; then
          sqlite3 -header "$AUTO_DB" 'SELECT * FROM host_protocols' 2>&1 | sed 's/^/    host_protocols: /'
          # the connection memory too (HTTP/2's under "host:port h2"): where the next run starts
          sqlite3 -header "$AUTO_DB" 'SELECT * FROM hosts' 2>&1 | sed 's/^/    hosts: /'
        fi
      } >> "$RESULTS/braid-auto-choices.txt"
    fi
    say "$(printf 'rep %d/%d %-9s exit %-3s wall %7s s  %7s MiB/s  cpu %6.2f s  sha %s' "$rep" "$REPS" "$t" "$rc" "$wall" \
         "$(awk -v b="$BYTES" -v w="$wall" -v ok=$ok 'BEGIN{printf "%.1f", (ok=="yes" && w>0) ? b/1048576/w : 0}')" \
         "$(awk -v u="$usr" -v s="$sys" 'BEGIN{print u+s}')" "$ok")"
    if [[ $rc != 0 || $ok != yes ]] && [[ -s $log ]]; then sed -n '2,6p' "$log" | sed 's/^/    | /' >&2; fi
  done
done
stop_nginx                                          # flushes the last access log lines
cp "$SDIR/access.log" "$RESULTS/access.log"
[[ -s $SDIR/error.log ]] && cp "$SDIR/error.log" "$RESULTS/nginx-error.log"
if (( $(stat -c %s "$RESULTS/access.log") > 2097152 )); then gzip -9f "$RESULTS/access.log"; fi
rmdir "$RESULTS/logs" 2>/dev/null || true          # only if every run was silent

# --- requests per run, from the access log ---------------------------------------------------------
# requests, 206, 200, other statuses, distinct connections, most requests on one connection,
# bytes served, bytes inside the per-request allowance of RATE bytes, requests <= RATE bytes
awk -F'|' -v rb="$FREE_BYTES" '
  { if (!match($8, /[?&]run=[^& ]*/)) next
    run = substr($8, RSTART + 5, RLENGTH - 5)
    if (!match($8, /[?&]rep=[0-9]+/)) next
    run = run "," substr($8, RSTART + 5, RLENGTH - 5)
    if (!(run in req)) order[++n] = run
    req[run]++
    if ($2 == 206) p[run]++; else if ($2 == 200) f[run]++; else o[run]++
    if (!((run, $4) in seen)) { seen[run, $4] = 1; conns[run]++ }
    if ($5 + 0 > mx[run]) mx[run] = $5 + 0
    bytes[run] += $3
    if ($8 ~ / HTTP\/2(\.0)?$/) h2[run]++          # $request ends with the protocol
    st = $1 - $6                                  # when the request arrived
    if (!(run in first) || st < first[run]) first[run] = st
    if (rb > 0) { free[run] += ($3 < rb) ? $3 : rb; if ($3 > 0 && $3 <= rb) small[run]++ }
  }
  END { for (i = 1; i <= n; i++) { r = order[i]
          printf "%s,%d,%d,%d,%d,%d,%d,%.0f,%.0f,%d,%.3f,%d\n", r, req[r], p[r], f[r], o[r], conns[r], mx[r],
                 bytes[r], free[r], small[r], first[r], h2[r] } }' "$SDIR/access.log" > "$TMPD/requests.csv"

# --- runs.csv: timing joined with the request counts ---------------------------------------------------
CSV=$RESULTS/runs.csv
echo "scenario,tool,rep,exit,wall_s,user_s,sys_s,cpu_s,maxrss_mib,mib_per_s,sha_ok,bytes,requests,status_206,status_200,status_other,connections,max_req_per_conn,served_mib,free_pct,small_requests,busy_before_pct,busy_pct,first_request_s,started$([[ -n $LINK ]] && echo ,link_pkts,link_dropped,link_drop_pct,link_cpu_s)$([[ $TLS == 1 ]] && echo ,http2_requests)" > "$CSV"
awk -F, -v sc="$SCENARIO" -v size="$BYTES" -v tls="$TLS" '
  FNR == NR { rq[$1 "," $2] = $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 "," $12 "," $13; next }
  { key = $1 "," $2
    split((key in rq) ? rq[key] : "0,0,0,0,0,0,0,0,0,0,0", q, ",")
    wall = $4 + 0
    # seconds from launching the tool to its first request reaching nginx ("-" if none)
    fr = (q[10] + 0 > 0) ? sprintf("%.2f", q[10] - $12) : "-"
    printf "%s,%s,%d,%d,%.2f,%.2f,%.2f,%.2f,%.1f,%.1f,%s,%.0f,%d,%d,%d,%d,%d,%d,%.1f,%.1f,%d,%d,%d,%s,%s",
      sc, $1, $2, $3, wall, $5, $6, $5 + $6, $7 / 1024, ($8 == "yes" && wall > 0) ? size / 1048576 / wall : 0,
      $8, $9, q[1], q[2], q[3], q[4], q[5], q[6], q[7] / 1048576, (q[7] > 0) ? 100 * q[8] / q[7] : 0, q[9], $10, $11, fr, $13
    # with LINK: packets offered to the link (both ways), dropped by it, and the emulator CPU s
    if (NF >= 16) printf ",%d,%d,%.2f,%.2f", $14, $15, ($14 > 0) ? 100 * $15 / $14 : 0, $16
    if (tls == 1) printf ",%d", q[11]                  # requests nginx served over HTTP/2
    printf "\n" }
' "$TMPD/requests.csv" "$TIMING" >> "$CSV"

# medians.csv: per tool, medians over the good runs (lib.sh's medians reads the column "ok")
sed '1s/sha_ok/ok/' "$CSV" > "$TMPD/runs-ok.csv"
medians "$TMPD/runs-ok.csv" wall_s cpu_s maxrss_mib mib_per_s requests connections served_mib \
  $([[ -n $LINK ]] && echo link_drop_pct link_cpu_s) > "$RESULTS/medians.csv"

# --- summary.md -------------------------------------------------------------------------------------
# values of column $2 for tool $1 (only runs with exit 0 and a correct sha256 unless $3 = all)
vals() {
  awk -F, -v t="$1" -v c="$2" -v all="${3:-}" '
    NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $2 == t && (all == "all" || ($h["exit"] == 0 && $h["sha_ok"] == "yes")) { print $h[c] }' "$CSV"
}
# median / min / max of numbers on stdin, with $1 decimals; "-" when there are none
median() { sort -g | awk -v d="${1:-2}" '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
  printf "%.*f\n", d, (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -g | awk -v d="${1:-2}" 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR == 0) print "-"; else printf "%.*f–%.*f\n", d, lo, d, hi }'; }
has() { local x; for x in "${tools[@]}"; do [[ $x == "$1" ]] && return 0; done; return 1; }
# per-rep ratios a/b of column c (both runs ok) -> "median|min–max|count"
paired() {
  awk -F, -v a="$1" -v b="$2" -v c="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["exit"] == 0 && $h["sha_ok"] == "yes" { if ($2 == a) va[$3] = $h[c]; if ($2 == b) vb[$3] = $h[c] }
    END { for (r in va) if ((r in vb) && vb[r] > 0) print va[r] / vb[r] }' "$CSV" > "$TMPD/ratios"
  echo "$(median 2 < "$TMPD/ratios")|$(range 2 < "$TMPD/ratios")|$(wc -l < "$TMPD/ratios")"
}
gib=$(awk -v b="$BYTES" 'BEGIN{print b / 1073741824}')
SUM=$RESULTS/summary.md
{
  echo "# $SCENARIO ($(date +%F))"
  echo
  if [[ -n $LINK ]]; then
    echo "$SIZE file ($BYTES bytes) from nginx in a network namespace behind an emulated link:"
    echo "$(link_describe),"
    echo "$( [[ -n $RATE ]] && echo "and \`limit_rate $RATE\` (per request)," || echo "no nginx rate limit,")"
  else
    echo "$SIZE file ($BYTES bytes) from nginx on 127.0.0.1, $( [[ -n $RATE ]] && echo "\`limit_rate $RATE\` (per request)" || echo "no rate limit"),"
  fi
  if [[ $TLS == 1 ]]; then
    echo "over HTTPS: nginx offers HTTP/2 and HTTP/1.1 by ALPN, TLS 1.2/1.3, session cache and tickets; a certificate"
    echo "made for the run, trusted by braid (--ca-cert), curl (--cacert) and aria2c (--ca-certificate); axel does"
    echo "not check it (--insecure: it has no CA option). braid-auto keeps one state database through its repetitions."
  fi
  echo "$REPS repetitions, tools interleaved (order rotated each repetition), ${TIMEOUT} s timeout per run."
  [[ -z $KEEP_STATE ]] || echo "KEEP_STATE=1: braid's state database was kept across the runs (empty at the first), so braid's first run met a new host and the later ones a remembered one."
  echo "Host: $(nproc) CPUs, $(uname -r). Medians over the runs that exited 0 with a correct sha256;"
  echo "every number below comes from this one invocation (see env.txt for versions and command lines)."
  echo
  echo "| tool | conns asked | ok/runs | exit codes | wall s | wall min–max | MiB/s | user s | sys s | CPU s | CPU s/GiB | peak RSS MiB |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  for t in "${tools[@]}"; do
    okc=$(vals "$t" sha_ok all | paste -d, - <(vals "$t" exit all) | grep -c '^yes,0$' || true)
    runs=$(vals "$t" exit all | wc -l)
    codes=$(vals "$t" exit all | sort -n | uniq -c | awk '{printf "%s%s×%s", (NR>1?" ":""), $2, $1}')
    cpu_gib=$(vals "$t" cpu_s | awk -v g="$gib" '{print $1 / g}' | median 2)
    echo "| $t | $(tool_conns "$t") | $okc/$runs | $codes | $(vals "$t" wall_s | median 2) | $(vals "$t" wall_s | range 2) |" \
         "$(vals "$t" mib_per_s | median 1) | $(vals "$t" user_s | median 2) | $(vals "$t" sys_s | median 2) |" \
         "$(vals "$t" cpu_s | median 2) | $cpu_gib | $(vals "$t" maxrss_mib | median 1) |"
  done
  echo
  echo "## Ratios between tools of this run"
  echo
  echo "Ratio of the medians, and the same ratio taken within each repetition (min–max over reps)."
  echo
  echo "| ratio | of medians | per rep: median | per rep: min–max | reps |"
  echo "|---|---|---|---|---|"
  ratio_row() {   # label a b column
    local label=$1 a=$2 b=$3 c=$4 ma mb p
    has "$a" && has "$b" || return 0
    ma=$(vals "$a" "$c" | median 4); mb=$(vals "$b" "$c" | median 4)
    p=$(paired "$a" "$b" "$c")
    echo "| $label | $(awk -v x="$ma" -v y="$mb" 'BEGIN{ if (x == "-" || y == "-" || y == 0) print "-"; else printf "%.2f", x / y }') | ${p//|/ | } |"
  }
  # braid runs with more than one connection (braid-cN, N > 1, the default, and the HTTP versions)
  multi=()
  for t in "${tools[@]}"; do [[ $t == braid* && $t != braid-c1 ]] && multi+=("$t"); done
  label() {
    case $1 in
      braid) echo "braid default" ;; braid-base) echo "braid-base (BASE_JAR) default" ;; braid-jvm) echo "braid default under plain java -jar" ;;
      braid-h1) echo "braid --http1.1" ;; braid-h2) echo "braid --http2" ;; braid-auto) echo "braid --http-auto" ;;
      *) echo "braid -c ${1#braid-c}" ;;
    esac
  }
  for t in "${multi[@]}"; do
    ratio_row "speed-up of $(label "$t") over -c 1 (wall c1 / wall $t)" braid-c1 "$t" wall_s
  done
  for t in "${multi[@]}"; do
    [[ $t == braid-c* ]] && ratio_row "braid default vs -c ${t#braid-c} (wall default / wall $t)" braid "$t" wall_s
  done
  # HTTP versions (TLS=1): one connection with ranges as streams against many connections
  ratio_row "braid --http2 vs --http1.1 (wall h2 / wall h1; <1 = HTTP/2 faster)" braid-h2 braid-h1 wall_s
  ratio_row "braid --http-auto vs --http1.1 (wall auto / wall h1)" braid-auto braid-h1 wall_s
  ratio_row "braid --http-auto vs --http2 (wall auto / wall h2)" braid-auto braid-h2 wall_s
  ratio_row "CPU s: braid --http2 / --http1.1" braid-h2 braid-h1 cpu_s
  ratio_row "curl --http2 vs curl (wall curl-h2 / wall curl)" curl-h2 curl wall_s
  for peer in aria2c axel curl curl-h2; do
    for t in "${multi[@]}"; do
      ratio_row "$(label "$t") vs $peer (wall braid / wall $peer; <1 = braid faster)" "$t" "$peer" wall_s
    done
  done
  ratio_row "braid -c 1 vs curl (wall braid / wall curl)" braid-c1 curl wall_s
  ratio_row "this build vs BASE_JAR (wall braid / wall braid-base)" braid braid-base wall_s
  ratio_row "CPU s: this build / BASE_JAR (braid / braid-base)" braid braid-base cpu_s
  ratio_row "launcher vs plain java -jar (wall braid / wall braid-jvm)" braid braid-jvm wall_s
  ratio_row "CPU s: launcher vs plain java -jar (braid / braid-jvm)" braid braid-jvm cpu_s
  for peer in aria2c axel curl; do
    for t in "${multi[@]}"; do ratio_row "CPU s: $(label "$t") / $peer" "$t" "$peer" cpu_s; done
  done
  ratio_row "CPU s: braid -c 1 / curl" braid-c1 curl cpu_s
  for t in "${multi[@]}"; do ratio_row "peak RSS: $(label "$t") / aria2c" "$t" aria2c maxrss_mib; done
  ratio_row "reference: aria2c vs axel (wall aria2c / wall axel)" aria2c axel wall_s
  ratio_row "reference: curl vs aria2c (wall curl / wall aria2c)" curl aria2c wall_s
  ratio_row "reference: curl --http2 vs aria2c (wall curl-h2 / wall aria2c)" curl-h2 aria2c wall_s
  echo
  echo "## Requests seen by nginx (median per run)"
  echo
  echo "From access.log: every request of a run carries \`?run=TOOL&rep=N\` in its URL."
  echo "first request s = from launching the tool to its first request reaching nginx (process start,"
  echo "JVM start, setup). served MiB above the file size means bytes fetched twice or dropped"
  echo "(what an aborted request had in flight counts too)."
  if [[ -n $RATE ]]; then
    echo "free % = share of the served bytes that nginx did not throttle: up to $(( FREE_BYTES >> 10 )) KiB of every"
    echo "request (see below); requests ≤ $(( FREE_BYTES >> 10 ))K = requests not throttled at all."
  fi
  echo
  [[ $TLS == 1 ]] && echo "HTTP/2 = requests nginx served over HTTP/2 (the rest went over HTTP/1.1)."
  echo
  echo "| tool | first request s | requests | 206 | 200 | other status | connections | max req/conn | served MiB | MiB/request |$( [[ -n $RATE ]] && echo " free % | requests ≤ $(( FREE_BYTES >> 10 ))K |")$( [[ $TLS == 1 ]] && echo " HTTP/2 |")"
  echo "|---|---|---|---|---|---|---|---|---|---|$( [[ -n $RATE ]] && echo "---|---|")$( [[ $TLS == 1 ]] && echo "---|")"
  for t in "${tools[@]}"; do
    mpr=$(awk -F, -v t="$t" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
           $2 == t && $h["exit"] == 0 && $h["sha_ok"] == "yes" && $h["requests"] > 0 { print $h["served_mib"] / $h["requests"] }' "$CSV" | median 2)
    echo "| $t | $(vals "$t" first_request_s | grep -v '^-' | median 2) | $(vals "$t" requests | median 0) | $(vals "$t" status_206 | median 0) | $(vals "$t" status_200 | median 0) |" \
         "$(vals "$t" status_other | median 0) | $(vals "$t" connections | median 0) | $(vals "$t" max_req_per_conn | median 0) |" \
         "$(vals "$t" served_mib | median 1) | $mpr |$( [[ -n $RATE ]] && echo " $(vals "$t" free_pct | median 1) | $(vals "$t" small_requests | median 0) |")$( [[ $TLS == 1 ]] && echo " $(vals "$t" http2_requests | median 0) |")"
  done
  if has braid-auto; then
    echo
    echo "### What braid --http-auto chose"
    echo
    echo "One state database through all its repetitions, empty before the first. A trial (the other"
    echo "version measured) happens only for downloads with at least 32 MiB to fetch. Per repetition, from"
    echo "nginx's log (which version its requests came over), and its own --debug line and host_protocols"
    echo "table afterwards in \`braid-auto-choices.txt\`. A trial of HTTP/2 sends its probe over the preferred"
    echo "HTTP/1.1 and aborts it, then fetches over HTTP/2: one HTTP/1.1 request and connection more."
    echo
    echo "| rep | exit | wall s | MiB/s | requests | HTTP/2 requests | connections | version used |"
    echo "|---|---|---|---|---|---|---|---|"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
      $h["tool"] == "braid-auto" { r = $h["requests"]; v = $h["http2_requests"]
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $h["rep"], $h["exit"], $h["wall_s"], $h["mib_per_s"], r, v,
          $h["connections"], (r == 0) ? "-" : (v == r) ? "HTTP/2" : (v == 0) ? "HTTP/1.1" : (r - v == 1) ? "HTTP/2 (probe over HTTP/1.1)" : "both" }' "$CSV"
  fi
  if [[ -n $RATE ]]; then
    echo
    echo "### What \`limit_rate $RATE\` does"
    echo
    echo "nginx throttles each *request*, not each connection: it sends a piece of at most"
    echo "min(RATE, sendfile_max_chunk = 2m) = $(( FREE_BYTES >> 10 )) KiB, then waits until the average is back at"
    echo "RATE, and the last piece is never waited for. A request of B bytes takes about"
    echo "max(0, B − $(( FREE_BYTES >> 10 )) KiB) / RATE. Probe before the runs (one request each, fresh connection):"
    echo
    echo "| request MiB | seconds | predicted s | MiB/s |"
    echo "|---|---|---|---|"
    printf '%s' "$PROBE"
    echo
    echo "Fully throttled, $SIZE takes $(( BYTES / RATE_BYTES )) s on 1 connection," \
         "$(awk -v b="$BYTES" -v r="$RATE_BYTES" 'BEGIN{printf "%.1f", b / r / 8}') s on 8 and" \
         "$(awk -v b="$BYTES" -v r="$RATE_BYTES" 'BEGIN{printf "%.1f", b / r / 16}') s on 16."
    echo "A tool that splits the file into many requests of a few MiB or less is hardly throttled even on"
    echo "few connections (requests of B bytes on one connection give RATE × B / (B − $(( FREE_BYTES >> 10 )) KiB))."
    echo "Compare tools here by connections *and* requests, not by speed alone."
  fi
  if [[ -n $LINK ]]; then
    echo
    echo "### The link"
    echo
    echo "Before the runs, 3 single 4 MiB requests, each on a fresh connection (connect = one RTT, or"
    echo "1 s more when the SYN was lost; one connection's speed through slow start and loss):"
    echo
    echo "| connect ms | seconds | MiB/s |"
    echo "|---|---|---|"
    printf '%s' "$LINK_PROBE"
    echo
    echo "Per run (median): packets through the link both ways, the share it dropped (random loss and"
    echo "a full buffer), and the CPU seconds of the user-space emulator (0 with netem: kernel time)."
    echo
    echo "| tool | link packets | dropped | dropped % | emulator CPU s |"
    echo "|---|---|---|---|---|"
    for t in "${tools[@]}"; do
      echo "| $t | $(vals "$t" link_pkts | median 0) | $(vals "$t" link_dropped | median 0) | $(vals "$t" link_drop_pct | median 2) | $(vals "$t" link_cpu_s | median 2) |"
    done
  fi
  failed=$(awk -F, 'NR > 1 && ($4 != 0 || $11 != "yes") { printf "%s rep %s (exit %s, %s bytes, sha %s); ", $2, $3, $4, $12, $11 }' "$CSV")
  if [[ -n $failed ]]; then
    echo
    echo "**Failed runs:** ${failed%; }. Their output is in \`logs/\`."
  fi
  busy=$(awk -F, 'NR > 1 && $22 >= '"$QUIET_PCT"' { printf "%s rep %s (%s %%); ", $2, $3, $22 }' "$CSV")
  if [[ -n $busy ]]; then
    echo
    echo "Host was busy before: ${busy%; } (waited ${QUIET_WAIT} s for < ${QUIET_PCT} %)."
  fi
  # load during the run that was not the tool's own CPU time (nginx counts here too)
  # (and, with LINK, not the user-space link emulator's, link_cpu_s)
  others=$(awk -F, -v n="$(nproc)" -v q="$QUIET_PCT" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
             $5 > 0 { o = $23 - 100 * ($8 + (("link_cpu_s" in h) ? $h["link_cpu_s"] : 0)) / ($5 * n)
             if (o >= q) printf "%s rep %s (%.0f %%); ", $2, $3, o }' "$CSV")
  if [[ -n $others ]]; then
    echo
    echo "Other load during the run (host busy minus the tool's own CPU, ≥ ${QUIET_PCT} % of $(nproc) CPUs):"
    echo "${others%; }. These runs may be slowed by other work on the host."
  fi
} > "$SUM"
cat "$SUM"
say "results in $RESULTS (runs.csv, summary.md, env.txt, access.log)"
[[ -x $HERE/charts.sh ]] && command -v gnuplot >/dev/null && "$HERE/charts.sh" "$RESULTS" || true
