# bench/lib.sh - pieces shared by the benchmark scripts (sourced, not run).

# install_braid_copy DIR [JAR]: copies the launcher and the jar (JAR, default downloader-cli/target's)
# into DIR and makes the AppCDS archive for that copy (an archive is valid only for the jar path it
# was made with), exactly as `mvn package` does for target/. A rebuild of target/ during a benchmark
# then cannot mix two builds in one table.
install_braid_copy() {
  local dir=$1 jar=${2:-$REPO/downloader-cli/target/braid.jar}
  [[ -s $jar ]] || die "$jar not found: build it (mvn -q -DskipTests package)"
  rm -rf "$dir"; mkdir -p "$dir"
  cp "$jar" "$dir/braid.jar"
  sh "$REPO/downloader-cli/src/main/dist/make-cds-archive.sh" java "$dir" "$REPO/downloader-cli/src/main/dist"
  [[ -s $dir/braid.jsa ]] || say "WARNING: no AppCDS archive for $dir (see $dir/braid-cds-training.log)"
}

# make_small_files DIR COUNT BYTES LABEL: COUNT files of BYTES each (f00000.bin...) and their
# SHA256SUMS in DIR, unless there already; cut from one AES-CTR keystream, so the same bytes on every
# machine. LABEL is the size as the user wrote it, for the message.
make_small_files() {
  local dir=$1 count=$2 bytes=$3 label=$4
  if [[ ! -s $dir/SHA256SUMS ]]; then
    say "creating $count files of $label in $dir"
    rm -rf "$dir"; mkdir -p "$dir"
    { openssl enc -aes-128-ctr -nosalt -K 62726169642d736d616c6c2d66696c65 -iv 0 -in /dev/zero 2>/dev/null || true; } \
      | head -c $(( count * bytes )) | (cd "$dir" && split -b "$bytes" -d -a 5 --additional-suffix=.bin - f)
    # printf is a builtin: a glob of 60,000 names passed to a command is beyond ARG_MAX
    (cd "$dir" && printf '%s\0' f*.bin | xargs -0 sha256sum > SHA256SUMS)
  fi
  chmod -R a+rX "$dir"
}

# make_test_cert DIR IP: a self-signed P-256 certificate (DIR/cert.pem, key DIR/key.pem) for IP,
# which is both its CN and its only subjectAltName: clients check the address they connect to
# against the SAN, so it must be the address they use (127.0.0.1, or the far end of a LINK).
# The certificate is its own CA: a tool trusts it with DIR/cert.pem as its CA file.
make_test_cert() {
  local dir=$1 ip=$2
  rm -f "$dir/cert.pem" "$dir/key.pem"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
    -subj "/CN=$ip" -addext "subjectAltName=IP:$ip" -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null \
    || die "openssl could not make a test certificate"
  chmod a+r "$dir/cert.pem"       # nginx reads the key as root before it drops to nobody
}

# start_nginx ROOT: a private nginx on 127.0.0.1:$PORT serving ROOT, config, pid and logs under
# $SDIR; its access log has status, bytes, the connection serial and its request count, so
# connections opened and keep-alive reuse can be counted per run (`?run=TOOL&rep=N` in URLs).
# With TLS=1 it serves HTTPS (HTTP/1.1, TLS 1.2+, session cache and tickets on, as a CDN would)
# with a self-signed certificate for 127.0.0.1 made here: $SDIR/cert.pem is the CA to trust.
start_nginx() {
  local root=$1 nginx listen scheme=http ca=()
  nginx=$(command -v nginx || echo /usr/sbin/nginx)
  mkdir -p "$SDIR/tmp" "$SDIR/logs"
  listen="listen 127.0.0.1:$PORT;"
  if [[ ${TLS:-0} == 1 ]]; then
    [[ -s $SDIR/cert.pem ]] || make_test_cert "$SDIR" 127.0.0.1
    listen="listen 127.0.0.1:$PORT ssl; ssl_certificate $SDIR/cert.pem; ssl_certificate_key $SDIR/key.pem;
    ssl_protocols TLSv1.2 TLSv1.3; ssl_session_cache shared:bench:4m; ssl_session_tickets on;"
    scheme=https ca=(--cacert "$SDIR/cert.pem")
  fi
  cat > "$SDIR/nginx.conf" <<CONF
worker_processes 1;
pid $SDIR/nginx.pid;
error_log $SDIR/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  log_format bench '\$msec \$status \$body_bytes_sent \$connection \$connection_requests "\$request_uri"';
  client_body_temp_path $SDIR/tmp; proxy_temp_path $SDIR/tmp; fastcgi_temp_path $SDIR/tmp;
  uwsgi_temp_path $SDIR/tmp; scgi_temp_path $SDIR/tmp;
  sendfile on; tcp_nopush on; keepalive_requests 100000; keepalive_timeout 60s; etag on;
  server {
    $listen
    root $root;
    access_log $SDIR/logs/access.log bench;
  }
}
CONF
  "$nginx" -p "$SDIR/" -c "$SDIR/nginx.conf" -e "$SDIR/logs/error.log" || die "nginx did not start"
  for _ in $(seq 50); do curl -s -o /dev/null "${ca[@]}" "$scheme://127.0.0.1:$PORT/" && return 0; sleep 0.1; done
  die "nginx does not answer on port $PORT"
}
stop_nginx() {
  local pid
  [[ -s $SDIR/nginx.pid ]] || return 0
  pid=$(cat "$SDIR/nginx.pid")
  [[ -r /proc/$pid/comm && $(cat "/proc/$pid/comm") == nginx ]] && kill "$pid" 2>/dev/null || true
  rm -f "$SDIR/nginx.pid"
}

cpu_stat() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9; exit}' /proc/stat; }
# wait (at most QUIET_WAIT s) until the host is less than QUIET_PCT % busy; prints the last value
wait_quiet() {
  local i b0 t0 b1 t1 busy=0
  for (( i = 0; i < QUIET_WAIT; i++ )); do
    read -r b0 t0 < <(cpu_stat); sleep 1; read -r b1 t1 < <(cpu_stat)
    busy=$(awk -v a="$b0" -v b="$t0" -v c="$b1" -v d="$t1" 'BEGIN{printf "%.0f", (d>b) ? 100*(c-a)/(d-b) : 0}')
    (( busy < QUIET_PCT )) && break
  done
  echo "$busy"
}

# timed OUTFILE CMD...: runs CMD under /usr/bin/time and `timeout`; OUTFILE gets "wall user sys maxrss_kib"
timed() {
  local out=$1; shift
  /usr/bin/time -o "$out" -f '%e %U %S %M' timeout -k 5 "$TIMEOUT" "$@"
}

# median_of: the median of the numbers on stdin ("-" for none)
median_of() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# medians CSV COLS...: per tool (in order of first appearance), the median of each column over
# the rows with exit 0 and ok=yes; prints "tool,col1,col2..." as CSV
medians() {
  local csv=$1 t c line; shift
  echo "tool,$(IFS=,; echo "$*")"
  for t in $(awk -F, 'NR > 1 && !s[$2]++ { print $2 }' "$csv"); do
    line=$t
    for c in "$@"; do
      line+=,$(awk -F, -v t="$t" -v col="$c" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["tool"] == t && $h["exit"] == 0 && $h["ok"] == "yes" { print $h[col] }' "$csv" | median_of)
    done
    echo "$line"
  done
}

# paired_ratio CSV A B COL: the ratio A/B of COL taken within each repetition; prints "median min max n"
paired_ratio() {
  awk -F, -v A="$2" -v B="$3" -v col="$4" '
    NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["exit"] == 0 && $h["ok"] == "yes" { v[$h["tool"] SUBSEP $h["rep"]] = $h[col]; reps[$h["rep"]] = 1 }
    END { for (r in reps) if (((A SUBSEP r) in v) && ((B SUBSEP r) in v) && v[B SUBSEP r] > 0) print v[A SUBSEP r] / v[B SUBSEP r] }' "$1" \
  | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "- - - 0"; exit }
      printf "%.2f %.2f %.2f %d\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR], NR }'
}

# serve_one_mib_and_hello WORK: the daemon-get benchmarks' fixture: WORK/www/one.bin (1 MiB of
# random bytes) served by python3's http.server on 127.0.0.1:6931 (its pid in $http, for the
# caller's cleanup), WORK/hello/Hello.class (a hello-world JVM to compare with) and WORK/out.
serve_one_mib_and_hello() {
  local work=$1
  mkdir -p "$work/www" "$work/out" "$work/hello"
  head -c 1048576 /dev/urandom >"$work/www/one.bin"
  printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' >"$work/hello/Hello.java"
  javac -d "$work/hello" "$work/hello/Hello.java"
  (cd "$work/www" && exec python3 -m http.server 6931 --bind 127.0.0.1 >/dev/null 2>&1) & http=$!
  until curl -sf -o /dev/null http://127.0.0.1:6931/one.bin; do sleep 0.05; done
}
