#!/usr/bin/env python3
"""bench/outage.sh's observer: every PERIOD seconds, one line with the seconds since START (epoch
seconds) and each download's aria2 status, with Braid's next try (HH:MM:SS UTC) while it waits.
With --once, prints only the statuses, once. Usage: poll.py PORT SECRET START PERIOD GID... | --once"""
import json
import sys
import time
import urllib.request

PORT, SECRET = sys.argv[1], sys.argv[2]


def status(gid):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "aria2.tellStatus", "params": ["token:" + SECRET, gid]})
    with urllib.request.urlopen("http://127.0.0.1:%s/jsonrpc" % PORT, body.encode(), timeout=10) as r:
        s = json.load(r)["result"]
    return s["status"] + ("@" + s["braidNextTry"][11:19] if "braidNextTry" in s else ""), s


if sys.argv[3] == "--once":
    print(" ".join(status(g)[1]["status"] for g in sys.argv[4:]))
    sys.exit(0)
start, period, gids = float(sys.argv[3]), float(sys.argv[4]), sys.argv[5:]
while True:
    try:
        line = " ".join(status(g)[0] for g in gids)
    except OSError as e:
        line = "no answer: %s" % e
    print("  +%.1f s %s" % (time.time() - start, line), flush=True)
    time.sleep(period)
