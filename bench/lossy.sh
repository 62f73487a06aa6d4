#!/usr/bin/env bash
# bench/lossy.sh - braid against aria2c, axel and curl over an emulated high-latency, lossy WAN
# link: ranged.sh with LINK set, and defaults for that scenario. Root only (network namespace).
#
# Usage: [VAR=value ...] bench/lossy.sh
#   e.g.  bench/lossy.sh                                  (16M, RTT 80 ms, 0.5 % loss, 200 Mbit/s)
#         LINK_LOSS=1 LINK_RTT=40 SIZE=32M bench/lossy.sh
#         SERVER_CC=bbr SIZE=64M bench/lossy.sh           (a loss-tolerant sender)
#
# Defaults, all overridable (see ranged.sh for the rest: REPS, TIMEOUT, BENCH_DIR, PORT...):
#   LINK=auto       netem if the kernel has sch_netem, else the user-space emulator (wanlink.c)
#   LINK_RTT=80     ms, round trip (a transatlantic path)
#   LINK_LOSS=0.5   % of packets lost at random, each way
#   LINK_RATE=200   Mbit/s each way, with a buffer of LINK_QUEUE = LINK_RTT ms
#   SERVER_CC=reno  nginx's congestion control. A loss-based sender is the case where parallel
#                   connections pay: one connection gets about MSS/RTT x 1.22/sqrt(loss), here
#                   ~0.3 MiB/s whatever the link's bandwidth. reno because a namespace may only
#                   choose algorithms in net.ipv4.tcp_allowed_congestion_control, and reno is
#                   always there (cubic behaves alike at these window sizes; bbr barely slows
#                   down for random loss, try SERVER_CC=bbr where it is allowed)
#   SIZE=16M        one connection needs about 50 s for it, so that 3 repetitions of the 5
#                   tools take about 10-12 minutes
#   TOOLS="braid braid-c1 aria2c axel curl"
#   PORT=18191, BENCH_DIR=/tmp/braid-bench-lossy  not ranged.sh's, so the two cannot disturb each
#                   other's nginx or files (they should still not run at once: both measure CPU)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LINK=${LINK:-auto} LINK_RTT=${LINK_RTT:-80} LINK_LOSS=${LINK_LOSS:-0.5} LINK_RATE=${LINK_RATE:-200}
export SERVER_CC=${SERVER_CC:-reno} SIZE=${SIZE:-16M} PORT=${PORT:-18191} BENCH_DIR=${BENCH_DIR:-/tmp/braid-bench-lossy}
export TOOLS=${TOOLS:-braid braid-c1 aria2c axel curl}
[[ $(id -u) == 0 ]] || { echo "lossy.sh: needs root: it creates a network namespace and a link (run bench/setup.sh first)" >&2; exit 1; }
exec "$HERE/ranged.sh" "$@"
