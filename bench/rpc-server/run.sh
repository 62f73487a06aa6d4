#!/usr/bin/env bash
# The measurement behind downloader-rpc's server library (docs/architecture.md, "The RPC module"):
# a minimal JSON-RPC POST + WebSocket server on /jsonrpc with Jetty 12.1.14 and with Undertow
# 2.4.4.Final; for each, 3 runs of: JVM start to the first answered POST, RSS after 50 POSTs, and
# the size of the jars beside the JDK. Loopback only (ports 6901, 6902). Rerun: bench/rpc-server/run.sh
set -euo pipefail
cd "$(dirname "$0")"
for v in jetty undertow; do
  (cd "$v" && mvn -B -q dependency:copy-dependencies -DoutputDirectory=lib >/dev/null && javac -cp 'lib/*' -d cls ./*.java)
  echo "$v jars: $(du -cb "$v"/lib/*.jar | tail -1 | cut -f1) bytes in $(ls "$v"/lib/*.jar | wc -l) jars"
done
measure() {
  local dir=$1 cls=$2 port=$3
  for i in 1 2 3; do
    t0=$(date +%s%3N)
    java -cp "$dir/cls:$dir/lib/*" "$cls" "$t0" 2>/dev/null & pid=$!
    until curl -s -o /dev/null -d '{}' "http://127.0.0.1:$port/jsonrpc"; do sleep 0.01; done
    t1=$(date +%s%3N)
    for _ in $(seq 50); do curl -s -o /dev/null -d '{"a":1}' "http://127.0.0.1:$port/jsonrpc"; done
    echo "$cls: first answer $((t1 - t0)) ms, $(grep VmRSS /proc/$pid/status | tr -s ' ')"
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
}
measure jetty J 6901
measure undertow U 6902
