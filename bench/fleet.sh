#!/usr/bin/env bash
# bench/fleet.sh - fleet mode (issue 21): one queue in PostgreSQL worked by several `braid daemon`
# processes, against the SQLite store, in one run on this machine. Loopback only.
#
#  1. claims/s: the store's claim path alone (ClaimBench.java: runnable page, start, finish, as
#     the engine's loop does), ENTRIES entries, 1, 2 and 4 workers (threads, each with a store and
#     connections of its own), SQLite file vs PostgreSQL.
#  2. files/s: ENTRIES small files (FILE_SIZE bytes) from the project's testserver, enqueued with
#     `braid get -i LIST --detach`, worked by 1, 2 and 4 daemons (-j JOBS each) on PostgreSQL, and
#     by one daemon on a SQLite file (one daemon per file: the engine lock allows no second), timed
#     from the last worker's "serving" line to the last completion.
#  3. per-connection rate limit: RATED_FILES files of RATED_SIZE bytes at RATE bytes/s per
#     connection, one PostgreSQL worker vs three (-j 2, one connection a download each), files/s
#     and the ratio three/one; the server's most concurrent requests are printed.
#
# Usage: [VAR=value ...] bench/fleet.sh        (build first: mvn -q -DskipTests package)
# Variables [defaults]: ENTRIES [10000], FILE_SIZE [4096], JOBS [8], WORKERS [1 2 4],
#   RATED_FILES [24], RATED_SIZE [1048576], RATE [524288], BENCH_DIR [/tmp/braid-bench-fleet],
#   RESULTS [bench/results/<YYYY-MM-DD>-fleet, -2... if taken]
# PostgreSQL is Debian's (testenv/require-packages.sh postgresql installs it), a throwaway
# cluster in BENCH_DIR on an ephemeral port, synchronous_commit=off (SQLite runs with
# synchronous=NORMAL: neither flushes each commit), trust authentication on 127.0.0.1.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
ENTRIES=${ENTRIES:-10000}
FILE_SIZE=${FILE_SIZE:-4096}
JOBS=${JOBS:-8}
WORKERS=${WORKERS:-1 2 4}
RATED_FILES=${RATED_FILES:-24}
RATED_SIZE=${RATED_SIZE:-1048576}
RATE=${RATE:-524288}
BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench-fleet}
die() { echo "fleet.sh: $*" >&2; exit 1; }
say() { echo "fleet.sh: $*" >&2; }

JAR=$REPO/downloader-cli/target/braid.jar
TS_JAR=$(ls "$REPO"/testserver/target/braid-testserver-*.jar 2>/dev/null | grep -v -- '-sources\|-javadoc\|-tests\.jar' | head -1 || true)
[[ -s $JAR && -n $TS_JAR ]] || die "braid.jar or the testserver jar is missing: mvn -q -DskipTests package"
if [[ -z ${RESULTS:-} ]]; then
  RESULTS=$HERE/results/$(date +%F)-fleet
  n=2; base=$RESULTS; while [[ -e $RESULTS ]]; do RESULTS=$base-$n; n=$((n + 1)); done
fi
mkdir -p "$RESULTS/logs"
rm -rf "$BENCH_DIR"; mkdir -p "$BENCH_DIR"
# private copies: a build while the benchmark runs must not swap the jars under it
cp "$JAR" "$BENCH_DIR/braid.jar"; JAR=$BENCH_DIR/braid.jar
cp "$TS_JAR" "$BENCH_DIR/testserver.jar"; TS_JAR=$BENCH_DIR/testserver.jar
bash "$REPO/testenv/require-packages.sh" postgresql

# ---- a throwaway PostgreSQL cluster, as the postgres user when root (the server refuses root)
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PGDIR=$BENCH_DIR/pg
mkdir -p "$PGDIR"
as_pg() { if [[ $(id -u) -eq 0 ]]; then setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; else "$@"; fi; }
[[ $(id -u) -eq 0 ]] && chown postgres: "$PGDIR"
PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
as_pg "$PGBIN/initdb" -D "$PGDIR/data" -U braid --auth=trust -E UTF8 --locale=C.UTF-8 >"$RESULTS/logs/initdb.log" 2>&1
# exec'd in the background job, so $! is the server itself and the cleanup's SIGINT (fast shutdown) reaches it
pg_exec() { if [[ $(id -u) -eq 0 ]]; then exec setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; else exec "$@"; fi; }
pg_exec "$PGBIN/postgres" -D "$PGDIR/data" -p "$PGPORT" -k "$PGDIR" -c listen_addresses=127.0.0.1 \
  -c synchronous_commit=off -c max_connections=200 >"$RESULTS/logs/postgres.log" 2>&1 &
PG_PID=$!
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  kill -INT "$PG_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$BENCH_DIR"
}
trap cleanup EXIT
psql_() { psql -h 127.0.0.1 -p "$PGPORT" -U braid -tA "$@"; }
until psql_ -d postgres -c 'SELECT 1' >/dev/null 2>&1; do
  kill -0 "$PG_PID" 2>/dev/null || die "PostgreSQL did not start: $RESULTS/logs/postgres.log"
  sleep 0.1
done
# called as $(new_pg), in a subshell: the name cannot come from a counter of this shell
new_pg() { local db=fleet_$(date +%s%N); psql_ -d postgres -c "CREATE DATABASE $db" >/dev/null; echo "postgresql://127.0.0.1:$PGPORT/$db?user=braid"; }
completed() { # LOCATION
  if [[ $1 == postgresql://* ]]; then
    local db=${1##*/}
    psql_ -d "${db%%\?*}" -c "SELECT count(*) FROM queue WHERE state = 'COMPLETED'"
  else
    sqlite3 "$1" "SELECT count(*) FROM queue WHERE state = 'COMPLETED'" 2>/dev/null || echo 0
  fi
}
now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", n / (b - a) }'; }

# ---- 1. claims/s
echo "| store | workers | adds/s | claims/s |" >"$RESULTS/claims.md"
echo "|---|---:|---:|---:|" >>"$RESULTS/claims.md"
for w in $WORKERS; do
  for store in sqlite postgres; do
    if [[ $store == sqlite ]]; then loc=$BENCH_DIR/claims-$w.db; else loc=$(new_pg); fi
    read -r n adds claims < <(java -cp "$JAR" "$HERE/fleet/ClaimBench.java" "$loc" "$ENTRIES" "$w" 2>>"$RESULTS/logs/claims.log")
    [[ $n -eq $ENTRIES ]] || die "claim bench on $store with $w workers claimed $n of $ENTRIES"
    say "claims: $store, $w workers: $adds adds/s, $claims claims/s"
    echo "| $store | $w | $adds | $claims |" >>"$RESULTS/claims.md"
  done
done

# ---- the workers: WORKER_COUNT daemons on LOCATION, each with a home of its own (its lock, port, secret)
start_workers() { # LOCATION COUNT JOBS OUT EXTRA...
  local loc=$1 count=$2 jobs=$3 out=$4; shift 4
  local i
  WORKER_PIDS=()
  for i in $(seq "$count"); do
    local home=$BENCH_DIR/home-$RANDOM-$i
    mkdir -p "$home"
    XDG_DATA_HOME=$home java -XX:+UseSerialGC -jar "$JAR" daemon --state-db "$loc" -d "$out" -j "$jobs" \
      --rpc-listen-port 0 --rpc-secret bench "$@" 2>"$home/err" &
    WORKER_PIDS+=($!); PIDS+=($!)
    WORKER_ERR[$i]=$home/err
  done
  for i in $(seq "$count"); do
    until grep -q "serving aria2 JSON-RPC" "${WORKER_ERR[$i]}"; do
      kill -0 "${WORKER_PIDS[$((i - 1))]}" 2>/dev/null || die "a worker ended: $(cat "${WORKER_ERR[$i]}")"
      sleep 0.05
    done
  done
}
stop_workers() { local p; for p in "${WORKER_PIDS[@]}"; do kill "$p"; done; for p in "${WORKER_PIDS[@]}"; do wait "$p" || true; done; }
declare -a WORKER_ERR WORKER_PIDS

run_batch() { # LOCATION COUNT JOBS FILES PORT DAEMON_OPTIONS... ; prints files/s; ENQUEUE_OPTIONS go to get
  local loc=$1 count=$2 jobs=$3 files=$4 port=$5; shift 5
  local out=$BENCH_DIR/out-$RANDOM
  mkdir -p "$out"
  seq 0 $((files - 1)) | sed "s|.*|http://127.0.0.1:$port/f&.bin|" >"$BENCH_DIR/list.txt"
  XDG_DATA_HOME=$BENCH_DIR/home-enqueue java -jar "$JAR" get -q -i "$BENCH_DIR/list.txt" --detach -d "$out" \
    --state-db "$loc" ${ENQUEUE_OPTIONS:-} >/dev/null 2>>"$RESULTS/logs/enqueue.log"
  start_workers "$loc" "$count" "$jobs" "$out" "$@"
  local t0 t1
  t0=$(now)
  until [[ $(completed "$loc") -ge $files ]]; do sleep 0.2; done
  t1=$(now)
  stop_workers
  rm -rf "$out"
  rate "$files" "$t0" "$t1"
}

server() { # COUNT SIZE RATE: starts FleetServer, sets SRV_PORT
  coproc SRV { exec java -cp "$TS_JAR" "$HERE/fleet/FleetServer.java" "$1" "$2" "$3" 2>>"$RESULTS/logs/server.log"; }
  SRV_PID_=$SRV_PID; PIDS+=($SRV_PID_)
  read -r SRV_PORT <&"${SRV[0]}" || die "the server did not start: $RESULTS/logs/server.log"
}
server_stop() { # sets SRV_PEAK, the most requests answered at once; not in a subshell (the coproc's stdin must close here)
  exec {SRV[1]}>&-
  read -r SRV_PEAK <&"${SRV[0]}" || SRV_PEAK=?
  wait "$SRV_PID_" 2>/dev/null || true
}

# ---- 2. files/s
server "$ENTRIES" "$FILE_SIZE" 0
echo "| store | workers | -j each | files/s |" >"$RESULTS/files.md"
echo "|---|---:|---:|---:|" >>"$RESULTS/files.md"
fs=$(run_batch "$BENCH_DIR/files.db" 1 "$JOBS" "$ENTRIES" "$SRV_PORT")
say "files: sqlite, 1 worker: $fs files/s"
echo "| sqlite | 1 | $JOBS | $fs |" >>"$RESULTS/files.md"
for w in $WORKERS; do
  fs=$(run_batch "$(new_pg)" "$w" "$JOBS" "$ENTRIES" "$SRV_PORT")
  say "files: postgres, $w workers: $fs files/s"
  echo "| postgres | $w | $JOBS | $fs |" >>"$RESULTS/files.md"
done
server_stop

# ---- 3. a per-connection rate limit: one worker vs three
echo "| workers | files/s | server's most requests at once |" >"$RESULTS/rated.md"
echo "|---:|---:|---:|" >>"$RESULTS/rated.md"
for w in 1 3; do
  server "$RATED_FILES" "$RATED_SIZE" "$RATE"
  fs=$(ENQUEUE_OPTIONS="-c 1" run_batch "$(new_pg)" "$w" 2 "$RATED_FILES" "$SRV_PORT" --max-connections-per-host 16)
  server_stop
  peak=$SRV_PEAK
  say "rated: $w workers: $fs files/s, at most $peak requests at once"
  echo "| $w | $fs | $peak |" >>"$RESULTS/rated.md"
  eval "rated_$w=$fs"
done
ratio=$(awk -v a="$rated_1" -v b="$rated_3" 'BEGIN { printf "%.2f", b / a }')
say "three workers / one: ${ratio}x"
{
  echo "# fleet.sh, $(date -u +%FT%TZ), $(nproc) cores, PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}')"
  echo
  echo "ENTRIES=$ENTRIES FILE_SIZE=$FILE_SIZE JOBS=$JOBS WORKERS=\"$WORKERS\" RATED_FILES=$RATED_FILES RATED_SIZE=$RATED_SIZE RATE=$RATE"
  echo
  echo "## claims/s (store only)"; echo; cat "$RESULTS/claims.md"; echo
  echo "## files/s ($FILE_SIZE-byte files)"; echo; cat "$RESULTS/files.md"; echo
  echo "## per-connection rate $RATE B/s, $RATED_FILES x $RATED_SIZE B, -j 2 -c 1 per worker"; echo; cat "$RESULTS/rated.md"; echo
  echo "three workers / one: ${ratio}x"
} >"$RESULTS/summary.md"
cat "$RESULTS/summary.md"
