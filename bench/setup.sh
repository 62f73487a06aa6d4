#!/usr/bin/env bash
# bench/setup.sh - install the programs the Braid benchmarks need, then print their versions.
#
# Usage: bench/setup.sh            (as root, on Debian/Ubuntu; safe to run again)
#
# Needed: nginx (the test server; nginx-light if the distribution still has it, else nginx),
#         aria2 and axel (the peer downloaders), curl, time (/usr/bin/time), openssl
#         (test data), gnuplot-nox (charts.sh). Java 17 and Maven are needed to build braid itself and are not
#         installed here.
# Only missing packages are installed; nothing that is already there is upgraded.
# Debian's nginx package normally starts a system-wide nginx on port 80 right after
# installing. A temporary /usr/sbin/policy-rc.d stops that: the benchmark runs its own
# private nginx on a high port (see ranged.sh).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

# command that must exist -> package that provides it
declare -A want=([aria2c]=aria2 [axel]=axel [curl]=curl [openssl]=openssl)
missing=()
for cmd in "${!want[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${want[$cmd]}")
done
[[ -x /usr/bin/time ]] || missing+=(time)
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
echo "time:    $(dpkg-query -W -f '${Version}' time 2>/dev/null || echo '?') (/usr/bin/time)"
if command -v java >/dev/null 2>&1; then
  echo "java:    $(java -version 2>&1 | head -1)"
else
  echo "java:    not found (needed to run braid)"
fi
