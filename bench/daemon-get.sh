#!/usr/bin/env bash
# issue 19's benchmark: `braid get` of 1 MiB through a running `braid daemon` against a hello-world
# JVM (target: at most 3x), curl and the in-process `braid get`, all in the same run; medians of N
# runs (default 9). Loopback only: python3's http.server on port 6931, the daemon on 6932.
# Needs the built launcher: mvn -B -pl downloader-cli -am package -DskipTests. Rerun: bench/daemon-get.sh [N]
# BRAID=PATH/braid measures another launcher; BASELINE=PATH/braid adds that build's two braid rows
# (its own daemon, port 6933) to the same run, e.g. an older build's for a before/after.
# DAEMON_ARGS adds options to both daemons, e.g. DAEMON_ARGS="--rpc-secret S" starts them as aria2
# users do (then no secret file is kept for a client to read).
set -euo pipefail
N=${1:-9}
here=$(cd "$(dirname "$0")" && pwd)
braid=${BRAID:-$here/../downloader-cli/target/braid}
[ -x "$braid" ] || { echo "build first: mvn -B -pl downloader-cli -am package -DskipTests" >&2; exit 1; }
work=$(mktemp -d)
cleanup() { kill "${daemon:-}" "${based:-}" "${http:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
# the 1 MiB file on python3's http.server (port 6931) and a compiled java Hello, in $work
. "$here/lib.sh"
serve_one_mib_and_hello "$work"
url=http://127.0.0.1:6931/one.bin

ms() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo $(((t1 - t0) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
fresh() { rm -f "$work/out/one.bin"; }
run_n() { local i; for i in $(seq "$N"); do fresh; ms "$@"; done | median; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
hello=$(run_n java -cp "$work/hello" Hello)
curl_ms=$(run_n curl -s -o "$work/out/one.bin" "$url")
inproc=$(run_n "$braid" get -q --state-db "$work/inproc.db" -d "$work/out" --overwrite "$url")
"$braid" daemon --state-db "$work/daemon.db" -d "$work/out" --rpc-listen-port 6932 ${DAEMON_ARGS:-} 2>"$work/daemon.err" & daemon=$!
until grep -qs "serving aria2 JSON-RPC" "$work/daemon.err"; do sleep 0.05; done
client=$(run_n "$braid" get -q --state-db "$work/daemon.db" -d "$work/out" "$url")
if [ -n "${BASELINE:-}" ]; then
  b_inproc=$(run_n "$BASELINE" get -q --state-db "$work/b-inproc.db" -d "$work/out" --overwrite "$url")
  "$BASELINE" daemon --state-db "$work/b-daemon.db" -d "$work/out" --rpc-listen-port 6933 ${DAEMON_ARGS:-} 2>"$work/b-daemon.err" & based=$!
  until grep -qs "serving aria2 JSON-RPC" "$work/b-daemon.err"; do sleep 0.05; done
  b_client=$(run_n "$BASELINE" get -q --state-db "$work/b-daemon.db" -d "$work/out" "$url")
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "1 MiB over loopback HTTP, median of $N runs (ms); load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg):"
echo "  java Hello            $hello"
echo "  curl                  $curl_ms"
echo "  braid get in-process  $inproc  ($(ratio "$inproc" "$hello")x hello, $(ratio "$inproc" "$curl_ms")x curl)"
echo "  braid get via daemon  $client  ($(ratio "$client" "$hello")x hello, $(ratio "$client" "$curl_ms")x curl, $(ratio "$client" "$inproc")x in-process)"
if [ -n "${BASELINE:-}" ]; then
  echo "  baseline $BASELINE:"
  echo "  braid get in-process  $b_inproc  ($(ratio "$b_inproc" "$hello")x hello)"
  echo "  braid get via daemon  $b_client  ($(ratio "$b_client" "$hello")x hello, $(ratio "$b_client" "$b_inproc")x in-process)"
fi
