#!/usr/bin/env bash
# issue 36's outage scenario: three 32 MiB downloads in a `braid daemon` (its defaults: retries for
# an hour, first wait 5 s doubling to 2 min) come through 90 s of refused connections and then 30 s
# of HTTP 503 with no client action; each file is checked by SHA-256. The server is bench/outage/
# server.py on 127.0.0.1:6941 (ranges, every connection capped at RATE B/s so the downloads are
# mid-way when it goes away, 4 connections each; SIGKILLed for the refused phase, a flag file for the 503 phase); the
# daemon's RPC is on 6942. Needs the built launcher: mvn -B -pl downloader-cli -am package -DskipTests.
# Rerun: bench/outage.sh [REFUSED_SECONDS [BUSY_SECONDS]]   (defaults 90 and 30; RATE=262144 SIZE=32)
set -euo pipefail
REFUSED=${1:-90}
BUSY=${2:-30}
RATE=${RATE:-262144}
SIZE_MIB=${SIZE:-32}
here=$(cd "$(dirname "$0")" && pwd)
braid=${BRAID:-$here/../downloader-cli/target/braid}
[ -x "$braid" ] || { echo "build first: mvn -B -pl downloader-cli -am package -DskipTests" >&2; exit 1; }
work=$(mktemp -d)
cleanup() { kill "${daemon:-}" "${server:-}" "${poller:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/files" "$work/out"
secret=outage-bench-secret
rpc() { curl -s -X POST http://127.0.0.1:6942/jsonrpc -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":[\"token:$secret\"$2]}"; }
field() { python3 -c "import json,sys; r=json.load(sys.stdin)['result']; print(r.get('$1', ''))"; }
field_of_result() { python3 -c "import json,sys; print(json.load(sys.stdin)['result'])"; }
start_server() { python3 "$here/outage/server.py" "$work/files" 6941 "$RATE" "$work/busy" 2>>"$work/server.log" & server=$!;
  until curl -s -o /dev/null -I http://127.0.0.1:6941/f1.bin 2>/dev/null; do sleep 0.05; done; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

for i in 1 2 3; do head -c $((SIZE_MIB << 20)) /dev/urandom > "$work/files/f$i.bin"; done
start_server
"$braid" daemon --state-db "$work/state.db" -d "$work/out" --rpc-listen-port 6942 --rpc-secret "$secret" 2>"$work/daemon.err" & daemon=$!
until grep -qs "serving aria2 JSON-RPC" "$work/daemon.err"; do sleep 0.05; done
gids=()
for i in 1 2 3; do
  gids+=("$(rpc aria2.addUri ",[\"http://127.0.0.1:6941/f$i.bin\"],{\"out\":\"f$i.bin\",\"split\":\"4\"}" | field_of_result)")
done
t_start=$(now)
# mid-way: every download has a MiB or more (4 connections at RATE each: about 32 s for a file)
until [ "$(for g in "${gids[@]}"; do rpc aria2.tellStatus ",\"$g\"" | field completedLength; done | awk '$1 >= 1048576' | wc -l)" -eq 3 ]; do sleep 0.2; done
before=$(for g in "${gids[@]}"; do rpc aria2.tellStatus ",\"$g\"" | field completedLength; done | paste -sd' ')
kill -9 "$server"; wait "$server" 2>/dev/null || true; server=
t_out=$(now)
echo "server gone (connections refused) after $(since "$t_start") s; bytes then: $before"
python3 "$here/outage/poll.py" 6942 "$secret" "$t_out" 5 "${gids[@]}" > "$work/poll.log" 2>&1 & poller=$!
sleep "$REFUSED"
touch "$work/busy"
start_server
echo "server back answering 503 at +$(since "$t_out") s"
sleep "$BUSY"
rm -f "$work/busy"
t_back=$(now)
echo "server serving again at +$(since "$t_out") s"
states=
for _ in $(seq 900); do
  states=$(python3 "$here/outage/poll.py" 6942 "$secret" --once "${gids[@]}")
  [ "$states" = "complete complete complete" ] && break
  case $states in *error*) break ;; esac
  sleep 1
done
t_done=$(since "$t_back")
kill "$poller" 2>/dev/null || true; wait "$poller" 2>/dev/null || true; poller=
cat "$work/poll.log"
waiting_seen=0
grep -q 'waiting@' "$work/poll.log" && waiting_seen=1
ok=1
for i in 1 2 3; do
  a=$(sha256sum < "$work/files/f$i.bin" | cut -d' ' -f1)
  b=$(sha256sum < "$work/out/f$i.bin" 2>/dev/null | cut -d' ' -f1 || true)
  [ "$a" = "$b" ] && echo "f$i.bin: SHA-256 identical ($a)" || { echo "f$i.bin: SHA-256 DIFFERS or missing"; ok=0; }
done
busy_answers=$(grep -c '" 503 ' "$work/server.log" || true)
echo
echo "Three ${SIZE_MIB} MiB downloads, one braid daemon (default retry policy), no client action:"
echo "  ${REFUSED} s of refused connections, then ${BUSY} s of 503 (${busy_answers} requests answered 503); states: $states"
echo "  shown waiting with a next try during the outage: $([ $waiting_seen = 1 ] && echo yes || echo no)"
echo "  all complete ${t_done} s after the server served again; byte-identical: $([ $ok = 1 ] && echo yes || echo NO)"
[ "$states" = "complete complete complete" ] && [ $ok = 1 ] && [ $waiting_seen = 1 ]
