#!/usr/bin/env bash
# issue 36, finding 1: a braid daemon under N stalled connections (half a head declaring a 1 MiB
# body and nothing more, half half a head; bench/rpc-flood/Flood.java). Prints, per N: how many
# connections were held, the slowest and median of 5 calls with the secret made meanwhile, the
# daemon's peak RSS and heap in use, whether it still answers then, and how long SIGTERM takes (all
# while the connections are held).
# Needs the built launcher: mvn -B -pl downloader-cli -am package -DskipTests.
# Rerun: bench/rpc-flood.sh [N...] (default 250 600 2000); BRAID=PATH/braid measures another build,
# BRAID_JAVA_OPTS=-Xmx64m a smaller heap (the launcher's default is 256 MiB).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
braid=${BRAID:-$here/../downloader-cli/target/braid}
[ -x "$braid" ] || { echo "build first: mvn -B -pl downloader-cli -am package -DskipTests" >&2; exit 1; }
ns=("$@"); [ ${#ns[@]} -gt 0 ] || ns=(250 600 2000)
work=$(mktemp -d)
cleanup() { kill -9 ${daemon:-} ${flood:-} 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
port=6936
echo "n,held,max_ms,median_ms,peak_rss_mib,heap_used_mib,answers_after,sigterm_ms,exit"
for n in "${ns[@]}"; do
  # a port of its own for each run: the last one's may still hold connections closing
  port=$((port + 1))
  rm -f "$work"/state.db*
  "$braid" daemon --state-db "$work/state.db" -d "$work" --rpc-listen-port $port --rpc-secret benchsecret 2>"$work/err" &
  daemon=$!
  until grep -qs "serving aria2 JSON-RPC" "$work/err"; do kill -0 $daemon || exit 1; sleep 0.05; done
  # Flood holds its connections 20 s after its line: the rest is measured meanwhile
  java "$here/rpc-flood/Flood.java" $port benchsecret "$n" 20 >"$work/flood" &
  flood=$!
  until grep -qs held= "$work/flood"; do kill -0 $flood || break; sleep 0.1; done
  out=$(cat "$work/flood")
  rss=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' /proc/$daemon/status 2>/dev/null || echo gone)
  heap=$(timeout 10 jcmd $daemon GC.heap_info 2>/dev/null | awk '/generation/ { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub("K,?", "", v); s += v } } END { printf "%.0f", s / 1024 }' || echo "?")
  after=$(curl -s -m 5 -d '{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:benchsecret"]}' http://127.0.0.1:$port/jsonrpc | grep -c version || true)
  t0=$(date +%s%N); kill -TERM $daemon 2>/dev/null || true
  code=0; wait $daemon || code=$?
  t1=$(date +%s%N); daemon=
  kill $flood 2>/dev/null; wait $flood 2>/dev/null || true
  held=$(sed 's/.*held=\([0-9]*\).*/\1/' <<<"$out"); max=$(sed 's/.*max_ms=\([0-9]*\).*/\1/' <<<"$out"); med=$(sed 's/.*median_ms=\([0-9]*\).*/\1/' <<<"$out")
  echo "$n,$held,$max,$med,$rss,$heap,$after,$(((t1 - t0) / 1000000)),$code"
done
