#!/usr/bin/env bash
# issue 19's benchmark in rounds: each round runs a java Hello, this build's `braid get` of 1 MiB
# through its running daemon and BASELINE's through its own, one after the other, so that a burst
# of load on a shared machine falls on all three; medians of N rounds (default 21) and the ratios.
# Loopback only: python3's http.server on port 6931, the daemons on 6932 and 6933.
# Rerun: BASELINE=OLD/braid bench/daemon-get-pairs.sh [N]   (both launchers built, each with its archive)
set -euo pipefail
N=${1:-21}
here=$(cd "$(dirname "$0")" && pwd)
braid=${BRAID:-$here/../downloader-cli/target/braid}
: "${BASELINE:?BASELINE=PATH/braid: the build to compare with}"
[ -x "$braid" ] && [ -x "$BASELINE" ] || { echo "build both first: mvn -B -pl downloader-cli -am package -DskipTests" >&2; exit 1; }
work=$(mktemp -d)
cleanup() { kill "${new:-}" "${old:-}" "${http:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
# the 1 MiB file on python3's http.server (port 6931) and a compiled java Hello, in $work
. "$here/lib.sh"
serve_one_mib_and_hello "$work"
url=http://127.0.0.1:6931/one.bin
"$braid" daemon --state-db "$work/new.db" -d "$work/out" --rpc-listen-port 6932 2>"$work/new.err" & new=$!
"$BASELINE" daemon --state-db "$work/old.db" -d "$work/out" --rpc-listen-port 6933 2>"$work/old.err" & old=$!
until grep -qs "serving aria2 JSON-RPC" "$work/new.err" && grep -qs "serving aria2 JSON-RPC" "$work/old.err"; do sleep 0.05; done
ms() { local t0 t1; rm -f "$work/out/one.bin"; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo $(((t1 - t0) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$N"); do
  ms java -cp "$work/hello" Hello >>"$work/hello.ms"
  ms "$braid" get -q --state-db "$work/new.db" -d "$work/out" "$url" >>"$work/new.ms"
  ms "$BASELINE" get -q --state-db "$work/old.db" -d "$work/out" "$url" >>"$work/old.ms"
done
h=$(median <"$work/hello.ms"); n=$(median <"$work/new.ms"); o=$(median <"$work/old.ms")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "1 MiB through a running daemon, $N rounds, medians (ms); load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg):"
echo "  java Hello                  $h"
echo "  braid get via daemon        $n  ($(ratio "$n" "$h")x hello, $(ratio "$n" "$o")x baseline)"
echo "  baseline $BASELINE via daemon  $o  ($(ratio "$o" "$h")x hello)"
