#!/usr/bin/env python3
"""bench/outage.sh's file server: GET and HEAD of the files in a folder on 127.0.0.1:PORT, with
single ranges, an ETag, and every connection capped at RATE bytes per second (so that downloads are
mid-way when the outage starts). While the flag file BUSY exists it answers every request 503 with
Retry-After: 10, as a server that is up but overloaded. Usage: server.py DIR PORT RATE BUSY"""
import http.server
import os
import re
import sys
import time

ROOT, PORT, RATE, BUSY = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
CHUNK = 64 * 1024


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        sys.stderr.write("%.3f %s\n" % (time.time(), fmt % args))

    def do_HEAD(self):
        self.answer(body=False)

    def do_GET(self):
        self.answer(body=True)

    def answer(self, body):
        if os.path.exists(BUSY):
            self.send_response(503)
            self.send_header("Retry-After", "10")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        path = os.path.join(ROOT, os.path.basename(self.path.split("?")[0]))
        if not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        size = os.path.getsize(path)
        start, end, status = 0, size - 1, 200
        m = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if m:
            start = int(m.group(1))
            end = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
            status = 206
        self.send_response(status)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", '"%d-%d"' % (size, int(os.path.getmtime(path))))
        self.send_header("Content-Length", str(end - start + 1))
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.end_headers()
        if not body:
            return
        with open(path, "rb") as f:
            f.seek(start)
            left = end - start + 1
            t0, sent = time.monotonic(), 0
            while left > 0:
                data = f.read(min(CHUNK, left))
                self.wfile.write(data)
                left -= len(data)
                sent += len(data)
                ahead = sent / RATE - (time.monotonic() - t0)
                if ahead > 0:
                    time.sleep(ahead)


http.server.ThreadingHTTPServer.daemon_threads = True
http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
