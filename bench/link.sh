# bench/link.sh - the emulated WAN link of ranged.sh's LINK mode (sourced, not run).
#
# nginx runs in its own network namespace, NS, and the tools reach it through a link with a
# round-trip time, random loss, a bandwidth limit and a drop-tail buffer:
#
#   tools (this namespace)  CLIENT_IP --[ link: RTT/2 + loss + rate each way ]-- SERVER_IP  nginx (NS)
#
# Two ways to build the link, chosen by LINK:
#   netem  a veth pair and `tc qdisc ... netem` on each end (the kernel's emulator, no CPU in
#          user space). Needs sch_netem, which many VM kernels are built without.
#   tun    bench/wanlink.c: a small user-space emulator between two TUN devices, compiled on
#          first use. Needs only TUN and a C compiler; costs a few % of one core at 200 Mbit/s.
#   auto   netem if the kernel has it, else tun.
# Both model each direction alike: loss first (independent draws), then the bottleneck with
# its buffer, then the delay. The one the run used is written to env.txt and summary.md.
#
# Uses from the caller: PORT, BENCH_DIR, HERE, say, die and the LINK_* settings.

NS=braid-bench-$PORT                     # one namespace per PORT, so two runs do not collide
CDEV=brdc$PORT                           # client end (this namespace)
SDEV=brds$PORT                           # server end (in NS)
NET=10.218.$(( PORT % 256 ))             # a /30 nobody else should use: .1 client, .2 server
CLIENT_IP=$NET.1
SERVER_IP=$NET.2
LINK_USED=""                             # netem or tun, once link_up succeeded
EMU_PID=""
EMU_OUT=$BENCH_DIR/server/wanlink.out    # "ready", then one line of counters per SIGUSR1
NETEM_NOTE=""                            # why netem was not used (auto mode)

nsx() { ip netns exec "$NS" "$@"; }
# load sch_netem if it is a module (there is nothing to load when it is built in or missing)
try_modprobe() { command -v modprobe >/dev/null && modprobe sch_netem 2>/dev/null; return 0; }

# packets a netem qdisc must hold: those on the wire (RTT/2 + jitter) and in the buffer,
# at the link rate in full-size packets, and never less than netem's default of 1000
netem_limit() {
  awk -v r="$LINK_RATE" -v d="$LINK_RTT" -v j="$LINK_JITTER" -v q="$LINK_QUEUE" 'BEGIN {
    n = (r > 0) ? r * 1e6 / 8 / 1500 * (d / 2 + j + q) / 1000 : 0
    printf "%d", (n < 1000) ? 1000 : n * 1.2 }'
}
netem_args() {
  local a="delay $(awk -v d="$LINK_RTT" 'BEGIN{print d / 2}')ms"
  awk -v j="$LINK_JITTER" 'BEGIN{exit !(j > 0)}' && a+=" ${LINK_JITTER}ms"
  a+=" loss ${LINK_LOSS}%"
  awk -v r="$LINK_RATE" 'BEGIN{exit !(r > 0)}' && a+=" rate ${LINK_RATE}mbit"
  echo "$a limit $(netem_limit)"
}

netem_up() {
  ip link add "$CDEV" type veth peer name "$SDEV" netns "$NS" || return 1
  # No TSO/GSO: netem would otherwise drop and time whole 64 KiB super-packets. One segment per
  # packet, as on a real link (and without needing ethtool).
  ip link set dev "$CDEV" gso_max_segs 1 && nsx ip link set dev "$SDEV" gso_max_segs 1 || return 1
  ip addr add "$CLIENT_IP/30" dev "$CDEV" && ip link set "$CDEV" up || return 1
  nsx ip addr add "$SERVER_IP/30" dev "$SDEV" && nsx ip link set "$SDEV" up || return 1
  # egress of each end = one direction: client -> server on CDEV, server -> client on SDEV
  # shellcheck disable=SC2046
  tc qdisc add dev "$CDEV" root netem $(netem_args) 2> "$BENCH_DIR/server/tc.err" || return 1
  # shellcheck disable=SC2046
  nsx tc qdisc add dev "$SDEV" root netem $(netem_args) 2>> "$BENCH_DIR/server/tc.err" || return 1
}

tun_up() {
  local bin=$BENCH_DIR/bin/wanlink src=$HERE/wanlink.c i
  [[ -c /dev/net/tun ]] || die "no /dev/net/tun: this kernel has neither netem nor TUN; cannot emulate a link"
  if [[ ! -x $bin || $src -nt $bin ]]; then
    command -v cc >/dev/null || die "the user-space link emulator needs a C compiler (cc): run bench/setup.sh"
    mkdir -p "$BENCH_DIR/bin"
    cc -O2 -Wall -o "$bin.tmp" "$src" || die "could not compile $src"
    mv "$bin.tmp" "$bin"
  fi
  "$bin" -a "$CDEV" -b "$SDEV" -n "$NS" -d "$(awk -v d="$LINK_RTT" 'BEGIN{print d / 2}')" -j "$LINK_JITTER" \
    -l "$LINK_LOSS" -r "$LINK_RATE" -q "$LINK_QUEUE" -s "$PORT" > "$EMU_OUT" 2>&1 &
  EMU_PID=$!
  for i in $(seq 1 200); do grep -q '^ready' "$EMU_OUT" 2>/dev/null && break; sleep 0.1; done
  grep -q '^ready' "$EMU_OUT" || die "the link emulator did not start: $(head -3 "$EMU_OUT")"
  ip link set "$CDEV" mtu 1500 up && ip addr add "$CLIENT_IP" peer "$SERVER_IP" dev "$CDEV" || die "cannot configure $CDEV"
  nsx ip link set "$SDEV" mtu 1500 up && nsx ip addr add "$SERVER_IP" peer "$CLIENT_IP" dev "$SDEV" || die "cannot configure $SDEV in $NS"
}

link_up() {
  [[ $(id -u) == 0 ]] || die "LINK=$LINK needs root (network namespace, devices, qdiscs); run as root or leave LINK empty"
  command -v ip >/dev/null || die "missing ip (iproute2): run bench/setup.sh"
  link_down                                       # leftovers of an interrupted run on this PORT
  ip netns add "$NS" || die "cannot create network namespace $NS"
  nsx ip link set lo up
  # The sender's congestion control decides how much loss costs (nginx sends the data). Only
  # algorithms in net.ipv4.tcp_allowed_congestion_control may be chosen outside the root
  # namespace; reno always is.
  nsx sysctl -q -w net.ipv4.tcp_congestion_control="$SERVER_CC" 2>/dev/null ||
    die "cannot use SERVER_CC=$SERVER_CC in a namespace (allowed: $(sysctl -n net.ipv4.tcp_allowed_congestion_control)); choose one of those"
  # Linux remembers ssthresh and RTT per destination and starts the next connection with them;
  # one run would then shape the next. Off in NS (the sender's side), which leaves the host alone.
  nsx sysctl -q -w net.ipv4.tcp_no_metrics_save=1
  case $LINK in
    netem) command -v tc >/dev/null || die "missing tc (iproute2): run bench/setup.sh"
           try_modprobe
           netem_up || die "netem is not available: $(cat "$BENCH_DIR/server/tc.err" 2>/dev/null) (kernel $(uname -r) needs CONFIG_NET_SCH_NETEM / modprobe sch_netem); LINK=tun works without it"
           LINK_USED=netem ;;
    tun)   tun_up; LINK_USED=tun ;;
    auto)  if command -v tc >/dev/null && try_modprobe && netem_up; then
             LINK_USED=netem
           else
             NETEM_NOTE="netem not available ($(head -1 "$BENCH_DIR/server/tc.err" 2>/dev/null || echo 'no tc'); kernel $(uname -r)), used the user-space emulator"
             say "$NETEM_NOTE"
             ip link del "$CDEV" 2>/dev/null || true
             tun_up; LINK_USED=tun
           fi ;;
  esac
}

link_down() {
  if [[ -n $EMU_PID ]] && kill -0 "$EMU_PID" 2>/dev/null; then
    kill "$EMU_PID" 2>/dev/null || true           # our child only; its TUN devices go with it
    wait "$EMU_PID" 2>/dev/null || true
  fi
  EMU_PID=""
  ip link del "$CDEV" 2>/dev/null || true         # a veth pair: deleting one end removes both
  if ip netns list 2>/dev/null | grep -qw "^$NS"; then ip netns del "$NS" 2>/dev/null || true; fi
}

# link_counters: "packets_offered packets_dropped emulator_cpu_s", both directions, cumulative
link_counters() {
  local n before
  if [[ $LINK_USED == tun ]]; then
    before=$(grep -c '^stats' "$EMU_OUT" || true)
    kill -USR1 "$EMU_PID" 2>/dev/null || { echo "0 0 0"; return; }
    for n in $(seq 1 40); do (( $(grep -c '^stats' "$EMU_OUT" || true) > before )) && break; sleep 0.05; done
    # stats T up pkts bytes lost qdrops overflow delivered werr down pkts bytes lost ...
    grep '^stats' "$EMU_OUT" | tail -1 | awk -v tck="$(getconf CLK_TCK)" -v pid="$EMU_PID" '{
      getline st < ("/proc/" pid "/stat"); split(st, f, " ")
      printf "%d %d %.2f\n", $4 + $12, $6 + $7 + $8 + $14 + $15 + $16, (f[14] + f[15]) / tck }'
  else
    # netem: "Sent B bytes P pkt (dropped D, ...)" on each end; random losses count as dropped
    { tc -s qdisc show dev "$CDEV"; nsx tc -s qdisc show dev "$SDEV"; } |
      awk '/Sent/ { p += $4; d += $7 + 0 } END { printf "%d %d 0\n", p + d, d }'
  fi
}

# link_describe: one line for env.txt and summary.md
link_describe() {
  echo "RTT ${LINK_RTT} ms (${LINK_RTT}/2 each way$(awk -v j="$LINK_JITTER" 'BEGIN{if (j > 0) printf ", jitter ±%s ms", j}')), loss ${LINK_LOSS} % each way," \
       "$(awk -v r="$LINK_RATE" 'BEGIN{print (r > 0) ? r " Mbit/s" : "no rate limit"}') each way, buffer ${LINK_QUEUE} ms," \
       "server congestion control $SERVER_CC; emulator: $([[ $LINK_USED == netem ]] && echo "netem ($(netem_args))" || echo "bench/wanlink.c over TUN (user space)")"
}
