#!/usr/bin/env bash
# Installs the Debian packages the tests need (real servers and peers nobody here wrote), once:
# a package already installed costs one dpkg query. As root only; otherwise it names what is
# missing and exits 3, so a test run says why instead of failing later.
# Services are not started by the install (policy-rc.d answers 101): each test starts its own
# server on a loopback port of its choosing.
set -euo pipefail

missing=()
for pkg in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "the tests need these Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
  exit 3
fi

# One installer at a time: test JVMs of several modules may ask at once.
exec 9>/var/lock/braid-require-packages.lock
flock 9
policy=/usr/sbin/policy-rc.d
restore=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"; restore=yes
fi
trap '[ -n "$restore" ] && rm -f "$policy"' EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
