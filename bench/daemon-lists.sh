#!/usr/bin/env bash
# issue 19's list benchmark: how long a `braid daemon` takes to answer aria2.tellStopped(0, 1000)
# (and (-1, 1000), newest first) with 1,000 and with 100,000 finished downloads in its queue
# (target: under 50 ms at 100,000, with the daemon's RSS no higher than at 1,000), beside
# aria2c --enable-rpc answering the same call in the same run. aria2c keeps at most
# --max-download-result stopped results (1,000 by default), so it is measured at 1,000 only: its
# 1,000 results are downloads that failed at once (a closed loopback port), as Braid's are
# failed entries too, so both answer 1,000 status structs of the same kind.
# The queue is filled by inserting rows into the state database with sqlite3 while no daemon
# runs (the columns a finished download has). Times are curl's time_total per call (the
# request, not curl's start), medians of N calls (default 21) after 20 warm-up calls (the daemon's JIT compiles the status path on the first ones); RSS is
# VmRSS after them; once more at 200,000 (time and RSS only). Then, at 1,000 and 100,000, three messages of 1,000 paused addUri with out= (each
# add looks up an unfinished entry writing its file), beside aria2c's time for the same messages.
# Loopback only: the daemon on port 6951, aria2c on 6952.
# Needs the built launcher (mvn -B -pl downloader-cli -am package -DskipTests), sqlite3, curl,
# aria2c. Rerun: bench/daemon-lists.sh [N]
set -euo pipefail
N=${1:-21}
here=$(cd "$(dirname "$0")" && pwd)
braid="$here/../downloader-cli/target/braid"
[ -x "$braid" ] || { echo "build first: mvn -B -pl downloader-cli -am package -DskipTests" >&2; exit 1; }
for c in sqlite3 curl aria2c; do command -v "$c" >/dev/null || { echo "daemon-lists.sh: needs $c" >&2; exit 1; }; done
work=$(mktemp -d)
db="$work/lists.db"
cleanup() { kill "${daemon:-}" "${aria:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

start_daemon() {
  : >"$work/daemon.err"
  "$braid" daemon --state-db "$db" -d "$work" --rpc-listen-port 6951 --rpc-secret bench 2>"$work/daemon.err" & daemon=$!
  until grep -q "serving aria2 JSON-RPC" "$work/daemon.err"; do sleep 0.05; done
}
stop_daemon() { kill "$daemon"; wait "$daemon" || true; daemon=; }
# fill TOTAL: adds failed entries until the queue holds $1 of them
fill() {
  sqlite3 "$db" "WITH RECURSIVE n(i) AS (SELECT (SELECT count(*) FROM queue) + 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
    INSERT INTO queue (urls, file, directory, options, priority, state, error, error_kind, target, length, done, owner,
      heartbeat_ms, created_ms, updated_ms)
    SELECT 'http://127.0.0.1:9/f' || i || '.bin', NULL, '$work', '', 0, 'FAILED', 'connection refused', 'network',
      NULL, -1, 0, NULL, 0, 0, 0 FROM n;"
}
call() { printf '{"jsonrpc":"2.0","id":1,"method":"%s","params":[%s]}' "$1" "$2"; }
# median ms of N calls of $2 (a JSON request) on port $1, after 20 warm-ups; checks the answer holds $3 gids
answer_ms() {
  local i got
  got=$(curl -s "http://127.0.0.1:$1/jsonrpc" -d "$2" | grep -o '"gid"' | wc -l)
  [ "$got" -eq "$3" ] || { echo "daemon-lists.sh: expected $3 results on port $1, got $got" >&2; exit 1; }
  for i in $(seq 19); do curl -s -o /dev/null "http://127.0.0.1:$1/jsonrpc" -d "$2"; done
  for i in $(seq "$N"); do curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$1/jsonrpc" -d "$2"; done |
    sort -g | awk '{ v[NR] = $1 * 1000 } END { printf "%.1f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
rss_mib() { awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }
# median s of 3 system.multicall messages on port $1, each adding 1,000 paused downloads with an
# out= name into a folder of its own under $2 (as a browser extension adds: each add looks for an
# unfinished entry writing that file); checks each answer holds 1,000 gids
adds_s() {
  local k body got
  for k in 1 2 3; do
    mkdir -p "$2-$k"
    body=$(for i in $(seq 1000); do printf '{"methodName":"aria2.addUri","params":["token:bench",["http://127.0.0.1:9/a%d.bin"],{"dir":"%s","out":"a%d.bin","pause":"true"}]},' "$i" "$2-$k" "$i"; done)
    # from a file: the message is longer than one argument may be
    call system.multicall "[${body%,}]" > "$work/adds.json"
    got=$(curl -s -w '\n%{time_total}' "http://127.0.0.1:$1/jsonrpc" --data-binary "@$work/adds.json")
    [ "$(printf '%s' "$got" | head -n -1 | grep -o '"[0-9a-f]\{16\}"' | wc -l)" -eq 1000 ] || { echo "daemon-lists.sh: 1,000 adds on port $1 not all answered with a gid" >&2; exit 1; }
    printf '%s\n' "$got" | tail -1
  done | sort -g | sed -n 2p
}
first='"token:bench",0,1000,["gid","status","totalLength","completedLength","errorCode"]'
last='"token:bench",-1,1000,["gid","status","totalLength","completedLength","errorCode"]'

start_daemon
stop_daemon
fill 1000
start_daemon
b1=$(answer_ms 6951 "$(call aria2.tellStopped "$first")" 1000)
b1n=$(answer_ms 6951 "$(call aria2.tellStopped "$last")" 1000)
r1=$(rss_mib "$daemon")
d1=$(adds_s 6951 "$work/adds1")
stop_daemon
fill 100000
start_daemon
b100=$(answer_ms 6951 "$(call aria2.tellStopped "$first")" 1000)
b100n=$(answer_ms 6951 "$(call aria2.tellStopped "$last")" 1000)
stat=$(curl -s http://127.0.0.1:6951/jsonrpc -d "$(call aria2.getGlobalStat '"token:bench"')" | grep -o '"numStopped":"[0-9]*"')
r100=$(rss_mib "$daemon")
d100=$(adds_s 6951 "$work/adds100")
stop_daemon
# twice the history again: what is left of the RSS's growth once SQLite's page cache (2 MB, its
# default) is full, i.e. whether any of it grows with the queue
fill 200000
start_daemon
b200=$(answer_ms 6951 "$(call aria2.tellStopped "$first")" 1000)
r200=$(rss_mib "$daemon")
stop_daemon

aria2c --enable-rpc --rpc-listen-port 6952 --rpc-secret bench -d "$work/aria" --max-tries=1 --retry-wait=0 \
  -j 16 --quiet >/dev/null 2>&1 & aria=$!
until curl -s -o /dev/null http://127.0.0.1:6952/jsonrpc -d "$(call aria2.getVersion '"token:bench"')"; do sleep 0.05; done
adds=$(for i in $(seq 1000); do printf '{"methodName":"aria2.addUri","params":["token:bench",["http://127.0.0.1:9/f%d.bin"]]},' "$i"; done)
curl -s -o /dev/null http://127.0.0.1:6952/jsonrpc -d "$(call system.multicall "[${adds%,}]")"
until curl -s http://127.0.0.1:6952/jsonrpc -d "$(call aria2.getGlobalStat '"token:bench"')" | grep -q '"numStopped":"1000"'; do
  sleep 0.2
done
a1=$(answer_ms 6952 "$(call aria2.tellStopped "$first")" 1000)
a1n=$(answer_ms 6952 "$(call aria2.tellStopped "$last")" 1000)
ra=$(rss_mib "$aria")
da=$(adds_s 6952 "$work/addsa")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "aria2.tellStopped(offset, 1000), 5 keys, median of $N calls (ms) and the server's RSS after them:"
echo "  braid daemon,   1,000 stopped:    (0,1000) $b1  (-1,1000) $b1n   RSS $r1 MiB"
echo "  braid daemon, 100,000 stopped:    (0,1000) $b100  (-1,1000) $b100n   RSS $r100 MiB  ($stat)"
echo "  braid daemon, 200,000 in queue:   (0,1000) $b200   RSS $r200 MiB"
echo "  aria2c $(aria2c --version | head -1 | awk '{print $3}'),  1,000 stopped:    (0,1000) $a1  (-1,1000) $a1n   RSS $ra MiB"
echo "  braid at 100,000 / aria2c at 1,000: $(ratio "$b100" "$a1")x (0,1000), $(ratio "$b100n" "$a1n")x (-1,1000)"
echo "1,000 paused aria2.addUri with out= in one system.multicall, median of 3 messages (s):"
echo "  braid daemon at 1,000 entries: $d1   at 100,000: $d100   aria2c at 1,000 stopped: $da"
echo "  braid at 100,000 / aria2c: $(ratio "$d100" "$da")x; braid at 100,000 / braid at 1,000: $(ratio "$d100" "$d1")x"
