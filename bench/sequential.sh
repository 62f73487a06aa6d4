#!/usr/bin/env bash
# bench/sequential.sh - issue 38: what in-order fetching costs. One file from a private nginx on
# 127.0.0.1, fetched by this build's braid three ways in each round (order rotated per round, so a
# burst of load on a shared machine falls on all): normal (`-o FILE`), `--sequential -o FILE`, and
# `-o -` into /dev/null; wall-clock medians and the paired ratios against normal.
#
# Usage: [SIZE=512M] [REPS=5] [RATE=] [CONNECTIONS=auto] bench/sequential.sh
#   SIZE  the file, K/M/G = powers of 1024 [512M]
#   REPS  rounds [5]
#   RATE  nginx limit_rate per request, e.g. 8m; empty = none []
#   CONNECTIONS  braid's -c [auto]
#   MODES the ways to run, among normal sequential stdout [all three]; ratios are to normal
#   BRAID braid command prefix [a copy of the launcher <repo>/downloader-cli/target/braid with its
#         own AppCDS archive]; e.g. BRAID="java -cp downloader-core/target/classes:downloader-cli/target/braid.jar
#         dev.braid.cli.Main" to try a change of the engine without packaging
#   BENCH_DIR scratch [/tmp/braid-bench-sequential], PORT nginx's port [18182]
# Needs the launcher: mvn -B -pl downloader-cli -am package -DskipTests
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SIZE=${SIZE:-512M}
REPS=${REPS:-5}
RATE=${RATE:-}
CONNECTIONS=${CONNECTIONS:-auto}
BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench-sequential}
PORT=${PORT:-18182}
SDIR=$BENCH_DIR/nginx
die() { echo "sequential.sh: $*" >&2; exit 1; }
say() { echo "sequential.sh: $*" >&2; }
. "$HERE/lib.sh"
cleanup() { stop_nginx; }
trap cleanup EXIT

mkdir -p "$BENCH_DIR/www" "$BENCH_DIR/out"
if [[ -z ${BRAID:-} ]]; then
  install_braid_copy "$BENCH_DIR/braid-copy"
  cp "$REPO/downloader-cli/target/braid" "$BENCH_DIR/braid-copy/"
  BRAID=$BENCH_DIR/braid-copy/braid
fi
read -r -a braid <<<"$BRAID"
file=$BENCH_DIR/www/seq-$SIZE.bin
[[ -s $file ]] || head -c "$(numfmt --from=iec "$SIZE")" /dev/urandom >"$file"
start_nginx "$BENCH_DIR/www"
if [[ -n $RATE ]]; then
  sed -i "s|root $BENCH_DIR/www;|root $BENCH_DIR/www; limit_rate $RATE;|" "$SDIR/nginx.conf"
  "$(command -v nginx || echo /usr/sbin/nginx)" -p "$SDIR/" -c "$SDIR/nginx.conf" -s reload
fi
url=http://127.0.0.1:$PORT/$(basename "$file")
want=$(sha256sum "$file" | cut -d' ' -f1)
csv=$BENCH_DIR/runs.csv
echo "rep,mode,seconds,ok" >"$csv"

run() { # run MODE REP
  local mode=$1 rep=$2 t0 t1 got
  rm -rf "$BENCH_DIR/out" "$BENCH_DIR/state.db"*; mkdir -p "$BENCH_DIR/out"
  t0=$(date +%s%N)
  case $mode in
    normal) "${braid[@]}" get -q --state-db "$BENCH_DIR/state.db" -c "$CONNECTIONS" -o "$BENCH_DIR/out/f" "$url" ;;
    sequential) "${braid[@]}" get -q --state-db "$BENCH_DIR/state.db" -c "$CONNECTIONS" --sequential -o "$BENCH_DIR/out/f" "$url" ;;
    stdout) "${braid[@]}" get -q --state-db "$BENCH_DIR/state.db" -c "$CONNECTIONS" -o - "$url" >/dev/null ;;
  esac
  t1=$(date +%s%N)
  got=yes
  [[ $mode == stdout ]] || [[ $(sha256sum "$BENCH_DIR/out/f" | cut -d' ' -f1) == "$want" ]] || got=no
  echo "$rep,$mode,$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'),$got" >>"$csv"
}

read -r -a modes <<<"${MODES:-normal sequential stdout}"
for rep in $(seq "$REPS"); do
  for (( k = 0; k < ${#modes[@]}; k++ )); do run "${modes[$(((rep + k) % ${#modes[@]}))]}" "$rep"; done
done
# the stdout runs' bytes: checked once, through sha256sum
got=$("${braid[@]}" get -q --state-db "$BENCH_DIR/state.db" -c "$CONNECTIONS" -o - "$url" | sha256sum | cut -d' ' -f1)
[[ $got == "$want" ]] || die "-o - gave sha256 $got, not $want"

ratio() { # ratio MODE: median over rounds of MODE's seconds / normal's
  awk -F, -v m="$1" 'NR > 1 && $4 == "yes" { t[$1 SUBSEP $2] = $3; r[$1] = 1 }
    END { for (i in r) if (((i SUBSEP m) in t) && ((i SUBSEP "normal") in t)) print t[i SUBSEP m] / t[i SUBSEP "normal"] }' "$csv" \
  | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f (min %.3f, max %.3f)", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}
med() { awk -F, -v m="$1" 'NR > 1 && $2 == m && $4 == "yes" { print $3 }' "$csv" | median_of; }
echo "$SIZE from nginx on loopback${RATE:+ (limit_rate $RATE)}, -c $CONNECTIONS, $REPS rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  normal       $(med normal) s"
[[ " ${modes[*]} " == *" sequential "* ]] && echo "  --sequential $(med sequential) s   ratio to normal $(ratio sequential)"
[[ " ${modes[*]} " == *" stdout "* ]] && echo "  -o -         $(med stdout) s   ratio to normal $(ratio stdout)"
echo "runs: $csv"
