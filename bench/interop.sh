#!/usr/bin/env bash
# bench/interop.sh - braid against real servers nobody here wrote, each case also run with aria2c
# on the same server: Debian's apache2, lighttpd (server.h2proto), h2o, caddy and rclone (`serve
# http`), Python's http.server, npm's http-server and serve, each started on 127.0.0.1 from a
# config written here, with TLS and HTTP/2 where the server offers them and compression on.
# Writes runs.csv (one line per run, with the last line the tool printed) and table.md (server x
# case: braid's result and exit, aria2c's) into bench/results/DATE-interop[-N]/.
#
# Usage: [VAR=value ...] bench/interop.sh
# Variables [defaults]:
#   SERVERS [apache lighttpd h2o caddy rclone python http-server serve]
#   CASES   [plain c8 kill changed-between changed-mid fresh norange gz-file gzip-text tls http2 auto]
#   SIZE [32M] the file of every case; RATE [8M] the client's rate limit in the kill and change
#   cases (so that they happen mid-download); TIMEOUT [60] s per run, then it is killed ("hung");
#   BRAID [a copy of downloader-cli/target's launcher and jar]; BENCH_DIR [/tmp/braid-interop];
#   PORT [18480] (HTTP; PORT+1 is TLS); RESULTS [bench/results/DATE-interop]
#
# Cases: plain (default flags), c8 (-c 8; aria2c -x 8 -s 8), kill (SIGKILL after 1.5 s, then the
# same command again), changed-between (SIGKILL, the file rewritten in place with other bytes, run
# again), changed-mid (rewritten in place 1 s into the download), fresh (modified just before the
# first request: Apache's weak-ETag second; braid reads its list from a pipe, so that its JVM is
# up before the file is touched), norange (a folder where the server ignores Range: apache
# `MaxRanges none`, lighttpd `server.range-requests = "disable"`; n/a elsewhere), gz-file (a
# .tar.gz, which Apache labels Content-Encoding: gzip), gzip-text (a text file fetched with a
# user's `-H 'Accept-Encoding: gzip'`, as "Copy as cURL" gives it), tls (https, default flags),
# http2 (--http2; aria2c has no HTTP/2 and fetches over HTTP/1.1), auto (--http-auto: a first
# download of the same size measures HTTP/1.1, the case's download is the HTTP/2 trial); not in the
# default list: h2-c16 (--http2 -c 16: sixteen streams on one connection; aria2c -x 16 -s 16 over
# HTTP/1.1) and fresh-h2-c16 (the same on a file modified just before the run).
# A result is "ok" only for exit 0 and the server's bytes (SHA-256 of the file as it was served;
# for a changed file, the new one).
#
# Installs what it needs: the Debian packages through testenv/require-packages.sh (root), npm's
# http-server and serve into BENCH_DIR/npm. Every server is stopped again at the end.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SERVERS=${SERVERS:-apache lighttpd h2o caddy rclone python http-server serve}
CASES=${CASES:-plain c8 kill changed-between changed-mid fresh norange gz-file gzip-text tls http2 auto}
SIZE=${SIZE:-32M} RATE=${RATE:-8M} TIMEOUT=${TIMEOUT:-60}
BENCH_DIR=${BENCH_DIR:-/tmp/braid-interop} PORT=${PORT:-18480}
TPORT=$((PORT + 1))
die() { echo "interop.sh: $*" >&2; exit 1; }
say() { echo "interop.sh: $*" >&2; }
source "$HERE/lib.sh"

packages=(aria2 openssl curl)
for s in $SERVERS; do
  case $s in
    apache) packages+=(apache2) ;;
    lighttpd) packages+=(lighttpd lighttpd-mod-deflate lighttpd-mod-openssl) ;;
    h2o|caddy|rclone) packages+=("$s") ;;
    python) packages+=(python3) ;;
    # nodejs ships npm where it comes from NodeSource (whose nodejs conflicts with Debian's npm)
    http-server|serve) command -v npm >/dev/null || packages+=(nodejs npm) ;;
    *) die "unknown server $s" ;;
  esac
done
read -r -a packages <<< "$(printf '%s\n' "${packages[@]}" | sort -u | tr '\n' ' ')"
bash "$REPO/testenv/require-packages.sh" "${packages[@]}" || die "cannot install ${packages[*]}"
mkdir -p "$BENCH_DIR"; chmod a+rx "$BENCH_DIR"
NPM_BIN=$BENCH_DIR/npm/node_modules/.bin
if [[ " $SERVERS " == *" http-server "* || " $SERVERS " == *" serve "* ]]; then
  if [[ ! -x $NPM_BIN/http-server || ! -x $NPM_BIN/serve ]]; then
    npm install --no-audit --no-fund --prefix "$BENCH_DIR/npm" http-server serve >&2 || die "npm install failed"
  fi
fi
if [[ -z ${BRAID:-} ]]; then install_braid_copy "$BENCH_DIR/braid"; BRAID=$BENCH_DIR/braid/braid; fi
# the checkout's commit when the run starts (the copied jar's, if it was built from it): the table names it
BUILT_AT=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null)
BYTES=$(numfmt --from=iec "$SIZE")
CERTS=$BENCH_DIR/certs; mkdir -p "$CERTS"; chmod a+rx "$CERTS"
[[ -s $CERTS/cert.pem ]] || make_test_cert "$CERTS" 127.0.0.1
chmod a+r "$CERTS/key.pem"   # servers that drop root before reading it (h2o, lighttpd's workers)
CERT=$CERTS/cert.pem KEY=$CERTS/key.pem
if [[ -z ${RESULTS:-} ]]; then
  RESULTS=$HERE/results/$(date +%F)-interop
  for i in $(seq 2 99); do [[ -e $RESULTS ]] || break; RESULTS=$HERE/results/$(date +%F)-interop-$i; done
fi
mkdir -p "$RESULTS"
echo "server,case,tool,exit,result,seconds,last_line" > "$RESULTS/runs.csv"

# ---- servers: each start_NAME writes its config under $SDIR, starts it in the background and sets
# HTTP_URL, HTTPS_URL (empty: no TLS), H2 (yes/no: offered by ALPN) and NORANGE (a folder, or empty)
SERVER_PIDS=()
stop_servers() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${SERVER_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  SERVER_PIDS=()
}
trap stop_servers EXIT INT TERM
bg() { "$@" >> "$SDIR/console.log" 2>&1 & SERVER_PIDS+=($!); }

start_apache() {
  local m=/usr/lib/apache2/modules mod
  {
    echo "ServerRoot $SDIR"; echo "DefaultRuntimeDir $SDIR"; echo "PidFile $SDIR/httpd.pid"
    echo "ErrorLog $SDIR/error.log"; echo "LogLevel warn"
    [[ $(id -u) == 0 ]] && printf 'User www-data\nGroup www-data\n'
    for mod in mpm_event authz_core mime filter deflate ssl socache_shmcb http2; do
      echo "LoadModule ${mod}_module $m/mod_$mod.so"
    done
    cat <<CONF
ServerName 127.0.0.1
TypesConfig /etc/mime.types
AddEncoding gzip .gz
AddOutputFilterByType DEFLATE text/plain
Listen 127.0.0.1:$PORT
Listen 127.0.0.1:$TPORT
DocumentRoot $DOCS
<Directory $DOCS>
  Require all granted
</Directory>
<Location /norange/>
  MaxRanges none
</Location>
SSLSessionCache shmcb:$SDIR/ssl_scache(512000)
<VirtualHost 127.0.0.1:$TPORT>
  SSLEngine on
  SSLCertificateFile $CERT
  SSLCertificateKeyFile $KEY
  Protocols h2 http/1.1
</VirtualHost>
CONF
  } > "$SDIR/httpd.conf"
  bg apache2 -f "$SDIR/httpd.conf" -DFOREGROUND
  H2=yes NORANGE=norange HTTPS_URL=https://127.0.0.1:$TPORT
}

start_lighttpd() {
  cat > "$SDIR/lighttpd.conf" <<CONF
server.document-root = "$DOCS"
server.bind = "127.0.0.1"
server.port = $PORT
server.errorlog = "$SDIR/error.log"
server.modules = ("mod_deflate", "mod_openssl")
server.h2proto = "enable"
mimetype.assign = (".txt" => "text/plain", ".gz" => "application/gzip", "" => "application/octet-stream")
deflate.mimetypes = ("text/plain")
deflate.allowed-encodings = ("gzip", "deflate")
\$SERVER["socket"] == "127.0.0.1:$TPORT" {
  ssl.engine = "enable"
  ssl.pemfile = "$CERT"
  ssl.privkey = "$KEY"
}
\$HTTP["url"] =^ "/norange/" {
  server.range-requests = "disable"
}
CONF
  # as root it drops to www-data before it opens its error log
  [[ $(id -u) == 0 ]] && { echo 'server.username = "www-data"' >> "$SDIR/lighttpd.conf"; chown www-data "$SDIR"; }
  bg lighttpd -D -f "$SDIR/lighttpd.conf"
  H2=yes NORANGE=norange HTTPS_URL=https://127.0.0.1:$TPORT
}

start_h2o() {
  cat > "$SDIR/h2o.conf" <<CONF
error-log: $SDIR/error.log
compress: ON
listen:
  host: 127.0.0.1
  port: $PORT
listen:
  host: 127.0.0.1
  port: $TPORT
  ssl:
    certificate-file: $CERT
    key-file: $KEY
hosts:
  "127.0.0.1":
    paths:
      /:
        file.dir: $DOCS
CONF
  [[ $(id -u) == 0 ]] && echo "user: www-data" >> "$SDIR/h2o.conf"
  bg h2o -c "$SDIR/h2o.conf"
  H2=yes NORANGE= HTTPS_URL=https://127.0.0.1:$TPORT
}

start_caddy() {
  cat > "$SDIR/Caddyfile" <<CONF
{
  admin off
  auto_https off
  storage file_system $SDIR/data
}
http://127.0.0.1:$PORT {
  root * $DOCS
  encode gzip
  file_server
}
https://127.0.0.1:$TPORT {
  tls $CERT $KEY
  root * $DOCS
  encode gzip
  file_server
}
CONF
  HOME=$SDIR XDG_DATA_HOME=$SDIR/data XDG_CONFIG_HOME=$SDIR/config bg caddy run --config "$SDIR/Caddyfile" --adapter caddyfile
  H2=yes NORANGE= HTTPS_URL=https://127.0.0.1:$TPORT
}

start_rclone() {
  : > "$SDIR/rclone.conf"
  # its directory cache shortened from 5 min to 5 s, or files made by a case stay 404 for minutes;
  # within those 5 s it still reports a rewritten file's old ETag and Last-Modified
  bg rclone serve http "$DOCS" --config "$SDIR/rclone.conf" --dir-cache-time 5s --addr "127.0.0.1:$PORT"
  bg rclone serve http "$DOCS" --config "$SDIR/rclone.conf" --dir-cache-time 5s --addr "127.0.0.1:$TPORT" \
    --cert "$CERT" --key "$KEY"
  H2=yes NORANGE= HTTPS_URL=https://127.0.0.1:$TPORT
}

start_python() {
  bg python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$DOCS"
  H2=no NORANGE= HTTPS_URL=
}

start_http-server() {
  bg "$NPM_BIN/http-server" "$DOCS" -a 127.0.0.1 -p "$PORT" -g --silent
  bg "$NPM_BIN/http-server" "$DOCS" -a 127.0.0.1 -p "$TPORT" -g --silent -S -C "$CERT" -K "$KEY"
  H2=no NORANGE= HTTPS_URL=https://127.0.0.1:$TPORT
}

start_serve() {
  bg "$NPM_BIN/serve" -l "tcp://127.0.0.1:$PORT" --no-clipboard "$DOCS"
  bg "$NPM_BIN/serve" -l "tcp://127.0.0.1:$TPORT" --no-clipboard --ssl-cert "$CERT" --ssl-key "$KEY" "$DOCS"
  H2=no NORANGE= HTTPS_URL=https://127.0.0.1:$TPORT
}

await_server() {
  local i
  for i in $(seq 100); do
    if curl -s -o /dev/null "http://127.0.0.1:$PORT/" \
      && { [[ -z $HTTPS_URL ]] || curl -s -o /dev/null --cacert "$CERT" "$HTTPS_URL/"; }; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

# await_visible URL: until the server serves a new file (rclone's directory cache hides it a while)
await_visible() {
  local i code
  for i in $(seq 100); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$CERT" -r 0-0 "$1")
    [[ $code == 200 || $code == 206 ]] && return 0
    sleep 0.1
  done
  say "$1 is still not served (HTTP $code)"
}

# ---- files
# gen FILE SEED: SIZE pseudo-random bytes (AES-CTR of zeros), world-readable, modified an hour ago
gen() {
  mkdir -p "$(dirname "$1")"
  openssl enc -aes-128-ctr -nosalt -K "$(printf '%032x' "$2")" -iv 0 -in /dev/zero 2>/dev/null | head -c "$BYTES" > "$1"
  chmod a+r "$1"; touch -d '1 hour ago' "$1"
}
# gen_text FILE: about SIZE bytes of compressible text
gen_text() {
  seq -f 'line %.0f: alpha braid range server segment mirror validator' 1 $((BYTES / 50 + 1)) | head -c "$BYTES" > "$1"
  chmod a+r "$1"; touch -d '1 hour ago' "$1"
}
# rewrite FILE SEED: other bytes of the same length, written in place (not a new inode), as an
# rsync --inplace or a tool rewriting its output does; modified two hours ago (a time of its own)
rewrite() {
  openssl enc -aes-128-ctr -nosalt -K "$(printf '%032x' "$2")" -iv 0 -in /dev/zero 2>/dev/null | head -c "$BYTES" \
    | dd of="$1" conv=notrunc bs=1M status=none
  touch -d '2 hours ago' "$1"
}
sha() { sha256sum "$1" | cut -d' ' -f1; }

# ---- tools. cmd_TOOL NAME URL [case flags]: the command line into $OUT/NAME. braid gets a home of
# its own per case (state database, host memory), as a new user has.
cmd_braid() {
  local name=$1 url=$2; shift 2
  CMD=(env "XDG_DATA_HOME=$HOMES/data" "XDG_CACHE_HOME=$HOMES/cache" "$BRAID" get "$url" -o "$OUT/$name" "$@")
  [[ $url == https://* ]] && CMD+=(--ca-cert "$CERT")
}
cmd_aria2c() {
  local name=$1 url=$2; shift 2
  CMD=(aria2c -q --allow-overwrite=true --auto-file-renaming=false -d "$OUT" -o "$name" "$@" "$url")
  [[ $url == https://* ]] && CMD+=(--ca-certificate="$CERT")
}
# flags of a case per tool: braid's, then aria2c's equivalents
flags() {
  case "$1:$2" in
    braid:c8) echo "-c 8" ;;
    aria2c:c8|aria2c:kill|aria2c:changed-between|aria2c:changed-mid|aria2c:fresh) echo "-x 8 -s 8 -k 1M" ;;
    braid:limited) echo "--limit-rate $RATE" ;;
    aria2c:limited) echo "-x 8 -s 8 -k 1M --max-overall-download-limit=$RATE" ;;
    aria2c:resume) echo "-c -x 8 -s 8 -k 1M" ;;
    braid:http2) echo "--http2" ;;
    braid:h2-c16|braid:fresh-h2-c16) echo "--http2 -c 16" ;;
    aria2c:h2-c16|aria2c:fresh-h2-c16) echo "-x 16 -s 16 -k 1M" ;;
    braid:auto) echo "--http-auto" ;;
    *) echo "" ;;
  esac
}

# run_to_end: runs $CMD with TIMEOUT; sets RC and LAST (the last line it printed)
run_to_end() {
  local start log=$HOMES/last.log
  start=$(date +%s.%N)
  timeout -s KILL "$TIMEOUT" "${CMD[@]}" > "$log" 2>&1 < /dev/null
  RC=$?
  SECS=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  LAST=$(grep -v '^\s*$' "$log" | tail -1 | tr -d '\r' | cut -c1-300)
}
# run_fresh NAME URL [flags]: braid on a file modified just before its first request. braid reads
# its list from a pipe: the JVM starts first (2 s), then the file is touched and its URL written,
# so the probe comes well inside Apache's one-second weak-ETag window even over TLS (a command
# started after the touch spends most of that second starting its JVM and TLS)
run_fresh() {
  local name=$1 url=$2 fifo=$HOMES/list.fifo log=$HOMES/last.log start pid fd; shift 2
  mkfifo "$fifo"
  CMD=(env "XDG_DATA_HOME=$HOMES/data" "XDG_CACHE_HOME=$HOMES/cache" "$BRAID" get -i - -j 1 -d "$OUT" "$@")
  [[ $url == https://* ]] && CMD+=(--ca-cert "$CERT")
  start=$(date +%s.%N)
  timeout -s KILL "$TIMEOUT" "${CMD[@]}" < "$fifo" > "$log" 2>&1 & pid=$!
  exec {fd}> "$fifo"
  sleep 2; touch "$DOCS/$name"; echo "$url" >&"$fd"
  exec {fd}>&-
  wait "$pid"; RC=$?
  SECS=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a - 2 }')
  # a list ends with its count: the line that says why is the failure, or an error the JVM printed
  LAST=$(grep -E -m1 'braid: failed|Error:|Exception' "$log" | tr -d '\r' | cut -c1-300)
  [[ -n $LAST ]] || LAST=$(grep -v '^\s*$' "$log" | tail -1 | tr -d '\r' | cut -c1-300)
}
# start_bg: runs $CMD in the background (PID)
start_bg() { "${CMD[@]}" > "$HOMES/bg.log" 2>&1 < /dev/null & PID=$!; }

verdict() { # verdict FILE EXPECTED_SHA: from RC and the bytes
  if [[ $RC == 137 || $RC == 124 ]]; then RESULT="hung"
  elif [[ $RC != 0 ]]; then RESULT="exit $RC"
  elif [[ ! -f $1 ]]; then RESULT="no file (0)"
  elif [[ $(sha "$1") == "$2" ]]; then RESULT="ok"
  else RESULT="WRONG bytes (0)"
  fi
}

record() { # record SERVER CASE TOOL
  printf '%s,%s,%s,%s,%s,%.1f,"%s"\n' "$1" "$2" "$3" "$RC" "$RESULT" "$SECS" "${LAST//\"/\'}" >> "$RESULTS/runs.csv"
  say "$1 $2 $3: $RESULT ($SECS s) ${LAST:0:160}"
  CELL+="${CELL:+ · }${3:0:1}: $RESULT"
}

# run_case SERVER CASE TOOL: one case with one tool; sets RESULT ("n/a" where the server lacks it)
run_case() {
  local server=$1 c=$2 tool=$3 name="$2-$3.bin" url expected base=$HTTP_URL
  OUT=$BENCH_DIR/out/$server/$c-$tool HOMES=$BENCH_DIR/home/$server/$c-$tool
  rm -rf "$OUT" "$HOMES"; mkdir -p "$OUT" "$HOMES"
  RC=0 SECS=0 LAST=
  case $c in
    tls|http2|auto|h2-c16|fresh-h2-c16) [[ -n $HTTPS_URL ]] || { RESULT="n/a"; return; }; base=$HTTPS_URL ;;
  esac
  [[ ($c == http2 || $c == *h2-c16) && $H2 != yes ]] && { RESULT="n/a"; return; }
  [[ $c == norange && -z $NORANGE ]] && { RESULT="n/a"; return; }
  case $c in
    norange) name="$NORANGE/$name"; mkdir -p "$DOCS/$NORANGE"; chmod a+rx "$DOCS/$NORANGE" ;;
    gz-file) name="$c-$tool.tar.gz" ;;
    gzip-text) name="$c-$tool.txt" ;;
  esac
  url=$base/$name
  if [[ $c == gzip-text ]]; then gen_text "$DOCS/$name"; else gen "$DOCS/$name" 1; fi
  expected=$(sha "$DOCS/$name")
  await_visible "$url"
  # shellcheck disable=SC2046
  case $c in
    kill|changed-between)
      "cmd_$tool" "$(basename "$name")" "$url" $(flags "$tool" limited); start_bg
      sleep 1.5; kill -9 "$PID" 2>/dev/null; wait "$PID" 2>/dev/null
      if [[ $c == changed-between ]]; then rewrite "$DOCS/$name" 2; expected=$(sha "$DOCS/$name"); fi
      if [[ $tool == aria2c ]]; then "cmd_$tool" "$(basename "$name")" "$url" $(flags "$tool" resume)
      else "cmd_$tool" "$(basename "$name")" "$url"; fi
      run_to_end ;;
    changed-mid)
      "cmd_$tool" "$(basename "$name")" "$url" $(flags "$tool" limited)
      ( sleep 1; rewrite "$DOCS/$name" 2 ) & local changer=$!
      run_to_end; wait "$changer"; expected=$(sha "$DOCS/$name") ;;
    fresh|fresh-h2-c16)
      if [[ $tool == braid ]]; then run_fresh "$name" "$url" $(flags "$tool" "$c")
      else touch "$DOCS/$name"; "cmd_$tool" "$(basename "$name")" "$url" $(flags "$tool" "$c"); run_to_end; fi ;;
    gzip-text)
      if [[ $tool == braid ]]; then "cmd_$tool" "$(basename "$name")" "$url" -H 'Accept-Encoding: gzip'
      else "cmd_$tool" "$(basename "$name")" "$url" '--header=Accept-Encoding: gzip'; fi
      run_to_end ;;
    auto)
      if [[ $tool == braid ]]; then   # the first large download to the host measures HTTP/1.1
        gen "$DOCS/auto-first.bin" 3; await_visible "$base/auto-first.bin"; "cmd_$tool" auto-first.bin "$base/auto-first.bin" --http-auto; run_to_end
      fi
      "cmd_$tool" "$(basename "$name")" "$url" $(flags "$tool" "$c"); run_to_end ;;
    *)
      "cmd_$tool" "$(basename "$name")" "$url" $(flags "$tool" "$c"); run_to_end ;;
  esac
  verdict "$OUT/$(basename "$name")" "$expected"
  # every case leaves two copies of SIZE (the served file and the download): a full matrix at 32M
  # kept about 10 GB before this
  rm -rf "$OUT" "$DOCS/$name" "$DOCS/auto-first.bin"
}

# ---- the matrix
read -r -a case_list <<< "$CASES"
{
  echo "| server |$(printf ' %s |' "${case_list[@]}")"
  echo "|---|$(printf -- '---|%.0s' "${case_list[@]}")"
} > "$RESULTS/table.body"
for server in $SERVERS; do
  SDIR=$BENCH_DIR/server/$server DOCS=$BENCH_DIR/docs/$server HTTP_URL=http://127.0.0.1:$PORT
  rm -rf "$SDIR" "$DOCS"; mkdir -p "$SDIR" "$DOCS"; chmod a+rx "$BENCH_DIR/docs" "$DOCS"
  "start_$server"
  if ! await_server; then
    say "$server did not start: $(tail -3 "$SDIR/console.log" "$SDIR/error.log" 2>/dev/null | tr '\n' ' ')"
    echo "| $server | $(printf 'did not start | %.0s' "${case_list[@]}")" >> "$RESULTS/table.body"
    stop_servers; continue
  fi
  row="| $server |"
  for c in "${case_list[@]}"; do
    CELL=
    for tool in braid aria2c; do
      run_case "$server" "$c" "$tool"
      if [[ $RESULT == n/a ]]; then CELL="n/a"; break; fi
      record "$server" "$c" "$tool"
    done
    row+=" $CELL |"
  done
  echo "$row" >> "$RESULTS/table.body"
  stop_servers
done

{
  echo "# Interop matrix, $(date -u '+%F %H:%M UTC')"
  echo
  echo "\`SERVERS='$SERVERS' CASES='$CASES' SIZE=$SIZE RATE=$RATE bench/interop.sh\`; braid $BUILT_AT,"
  echo "$(aria2c --version | head -1). Each cell: b = braid, a = aria2c; ok = exit 0 with the server's bytes."
  echo
  cat "$RESULTS/table.body"
} > "$RESULTS/table.md"
rm -f "$RESULTS/table.body"
say "wrote $RESULTS/table.md and runs.csv"
cat "$RESULTS/table.md"
