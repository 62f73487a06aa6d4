#!/usr/bin/env bash
# bench/setup.sh - install the programs the Braid benchmarks need, then print their versions.
#
# Usage: bench/setup.sh            (as root, on Debian/Ubuntu; safe to run again)
#
# Needed: nginx (the test server; nginx-light if the distribution still has it, else nginx),
#         aria2 and axel (the peer downloaders), curl, time (/usr/bin/time), openssl
#         (test data), gnuplot-nox (charts.sh); for lossy.sh: iproute2 (ip, tc) and a C compiler
#         with the kernel headers (gcc, libc6-dev: the user-space link emulator, built on first use
#         where the kernel has no sch_netem). Java 17 and Maven are needed to build braid itself
#         and are not installed here.
# At the end it says whether the kernel has netem (tried on a throwaway veth pair in a throwaway
# network namespace, so no interface of the host is touched).
# Only missing packages are installed; nothing that is already there is upgraded.
# Debian's nginx package normally starts a system-wide nginx on port 80 right after
# installing. A temporary /usr/sbin/policy-rc.d stops that: the benchmark runs its own
# private nginx on a high port (see ranged.sh).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

# command that must exist -> package that provides it
declare -A want=([aria2c]=aria2 [axel]=axel [curl]=curl [openssl]=openssl [ip]=iproute2 [tc]=iproute2 [cc]=gcc)
missing=()
for cmd in "${!want[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${want[$cmd]}")
done
[[ -x /usr/bin/time ]] || missing+=(time)
[[ -f /usr/include/linux/if_tun.h && -f /usr/include/stdio.h ]] || missing+=(libc6-dev)   # wanlink.c
command -v gnuplot >/dev/null 2>&1 || missing+=(gnuplot-nox)   # charts.sh
need_nginx=0
command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || need_nginx=1

if (( ${#missing[@]} > 0 || need_nginx )); then
  if [[ $(id -u) != 0 ]]; then
    echo "setup.sh: missing: ${missing[*]} $( ((need_nginx)) && echo nginx); run this script as root" >&2
    exit 1
  fi
  apt-get update -qq
  if (( need_nginx )); then
    # nginx-light where the distribution has it (in Debian 12 it is a small transitional
    # package that pulls in nginx); otherwise plain nginx. Any build has what we use:
    # sendfile, limit_rate, the access log.
    if apt-cache show nginx-light >/dev/null 2>&1 && \
       [[ -n $(apt-cache policy nginx-light | awk '/Candidate:/ && $2 != "(none)" {print $2}') ]]; then
      missing+=(nginx-light)
    else
      missing+=(nginx)
    fi
  fi
  made_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\n# temporary, from braid bench/setup.sh: do not start services while installing\nexit 101\n' \
      > /usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    made_policy=1
  fi
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)    # ip and tc: one package
  echo "setup.sh: installing ${missing[*]}" >&2
  rc=0
  apt-get install -y -qq --no-install-recommends --no-upgrade "${missing[@]}" >/dev/null || rc=$?
  (( made_policy )) && rm -f /usr/sbin/policy-rc.d
  (( rc == 0 )) || { echo "setup.sh: apt-get install failed ($rc)" >&2; exit "$rc"; }
else
  echo "setup.sh: everything is installed already" >&2
fi

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
echo "nginx:   $("$NGINX" -v 2>&1 | sed 's/^nginx version: //')"
echo "aria2c:  $(aria2c --version | head -1)"
echo "axel:    $(axel --version | head -1)"
echo "curl:    $(curl --version | head -1)"
echo "openssl: $(openssl version)"
echo "gnuplot: $(gnuplot --version)"
echo "iproute2: $(ip -V 2>&1)"
echo "cc:      $(cc --version | head -1)"
# netem (lossy.sh): load it if it is a module, then try it where it disturbs nothing
command -v modprobe >/dev/null && { modprobe sch_netem 2>/dev/null || true; }
probe_ns=braid-setup-netem-$$
netem="not available: lossy.sh will use its user-space emulator (bench/wanlink.c)"
if [[ $(id -u) == 0 ]] && ip netns add "$probe_ns" 2>/dev/null; then
  if ip netns exec "$probe_ns" ip link add pa type veth peer name pb 2>/dev/null &&
     ip netns exec "$probe_ns" tc qdisc add dev pa root netem delay 1ms 2>/dev/null; then
    netem="available (lossy.sh will use it)"
  fi
  ip netns del "$probe_ns"
else
  netem="not checked (needs root)"
fi
echo "netem:   $netem"
echo "time:    $(dpkg-query -W -f '${Version}' time 2>/dev/null || echo '?') (/usr/bin/time)"
if command -v java >/dev/null 2>&1; then
  echo "java:    $(java -version 2>&1 | head -1)"
else
  echo "java:    not found (needed to run braid)"
fi
