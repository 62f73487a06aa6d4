#!/usr/bin/env bash
# bench/wan.sh - a long fat link (issue 37): Hydra's protocol (1 GB over a 100 ms round trip,
# against aria2c -x8) scaled to this machine. ranged.sh with LINK set and these defaults: braid
# with no flags against aria2c -x8 -s8 and curl, wall and CPU seconds, SHA-256 of every output
# checked. Root only (network namespace).
#
# Usage: [VAR=value ...] bench/wan.sh
#   e.g.  bench/wan.sh                                         (512 MiB, RTT 100 ms, no loss, 200 Mbit/s)
#         SIZE=256M LINK_RTT=40 LINK_LOSS=0.01 bench/wan.sh    (the issue's lossy row)
#         BASE_JAR=/tmp/braid-before/braid.jar TOOLS="braid braid-base aria2c" bench/wan.sh
#                                                            (another build, paired in the same run)
#
# Defaults, all overridable (see ranged.sh for the rest: REPS, TIMEOUT, QUIET_*...):
#   SIZE=512M       Hydra used 1 GB; at this link's rate 512 MiB is 21 s or more per run
#   LINK=auto       netem if the kernel has sch_netem, else the user-space emulator (wanlink.c)
#   LINK_RTT=100    ms, round trip
#   LINK_LOSS=0     % lost at random each way (the buffer still drops what overflows it)
#   LINK_RATE=200   Mbit/s each way (23.8 MiB/s), buffer LINK_QUEUE = LINK_RTT ms (one
#                   bandwidth-delay product). What wanlink.c sustains on a 2-core host next to
#                   the tools: unlimited, 8 connections got 19-25 MiB/s and the emulator itself
#                   took 4-7 CPU-s per 512 MiB, so a faster nominal rate measures the host's CPU,
#                   not the link; 200 is also lossy.sh's rate, so the two scenarios compare
#   SERVER_CC=reno  the sender's congestion control (always allowed in a namespace). After a
#                   loss a reno connection regains 1 packet per RTT: at 100 ms one connection
#                   needs minutes to refill a 2.4 MB bandwidth-delay product, the long fat
#                   link's classic case for parallel connections
#   PEER_N=8        aria2c -x8 -s8, as in Hydra's table
#   TOOLS="braid aria2c curl"; braid-base = the build at BASE_JAR (see ranged.sh)
#   TIMEOUT=300     curl's one connection needs about 60 s
#   PORT=18193, BENCH_DIR=/tmp/braid-bench-wan  not ranged.sh's or lossy.sh's
#   SCENARIO        wan-<SIZE>-rtt<RTT>-loss<LOSS>-<RATE>mbit-<CC>
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LINK=${LINK:-auto} LINK_RTT=${LINK_RTT:-100} LINK_LOSS=${LINK_LOSS:-0} LINK_RATE=${LINK_RATE:-200}
export SERVER_CC=${SERVER_CC:-reno} SIZE=${SIZE:-512M} PEER_N=${PEER_N:-8} TIMEOUT=${TIMEOUT:-300}
export PORT=${PORT:-18193} BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench-wan}
export TOOLS=${TOOLS:-braid aria2c curl}
export SCENARIO=${SCENARIO:-wan-$SIZE-rtt$LINK_RTT-loss$LINK_LOSS-${LINK_RATE}mbit-$SERVER_CC}
[[ $(id -u) == 0 ]] || { echo "wan.sh: needs root: it creates a network namespace and a link (run bench/setup.sh first)" >&2; exit 1; }
exec "$HERE/ranged.sh" "$@"
