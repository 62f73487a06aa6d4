#!/usr/bin/env bash
# a session's experiment (run from this folder of a built checkout: mvn -pl downloader-cli -am package -DskipTests):
# braid get through a daemon with the launcher as is, vs a client-only archive (serial / G1)
set -euo pipefail
N=${1:-15}
repo=$(cd "$(dirname "$0")/../../.." && pwd)
here=$repo/bench
B=/tmp/braid-exp
rm -rf $B; mkdir -p $B; cp -r "$repo"/downloader-cli/target/{braid,braid.jar,braid.jsa,braid.jsa.stamp,braid-jit.json,native} $B/ 2>/dev/null || true
# stamp path differs after copy: rebuild the archive via setup
$B/braid setup >/dev/null 2>&1
work=$(mktemp -d)
cleanup() { kill "${d:-}" "${http:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
. "$here/lib.sh"
serve_one_mib_and_hello "$work"
url=http://127.0.0.1:6931/one.bin
$B/braid daemon --state-db "$work/s.db" -d "$work/out" --rpc-listen-port 6932 2>"$work/d.err" & d=$!
until grep -qs "serving aria2 JSON-RPC" "$work/d.err"; do sleep 0.05; done
native="$B/native/Linux-x86_64"
sq="-Dorg.sqlite.lib.path=$native -Dorg.sqlite.lib.name=libsqlitejdbc.so -Dorg.sqlite.tmpdir=$native"
jit="-XX:+UnlockDiagnosticVMOptions -XX:-DisplayVMOutput -XX:CompilerDirectivesFile=$B/braid-jit.json -XX:CompileCommand=quiet -XX:-C1ProfileBranches -XX:-C1ProfileCalls -XX:-C1ProfileCheckcasts -XX:-C1ProfileVirtualCalls -XX:-C1ProfileInlinedCalls"
serial="-XX:+UseSerialGC -Xmx256m -Xmn32m -XX:-UsePerfData $jit $sq -Xlog:cds=off -Xlog:cds+dynamic=off"
g1="-Xmx256m -XX:-UsePerfData $jit $sq -Xlog:cds=off -Xlog:cds+dynamic=off"
rm -f "$work/out/one.bin"
java $serial -Xshare:auto -XX:ArchiveClassesAtExit=$work/cs.jsa -jar $B/braid.jar get -q --state-db "$work/s.db" -d "$work/out" "$url" >/dev/null 2>&1
rm -f "$work/out/one.bin"
java $g1 -Xshare:auto -XX:ArchiveClassesAtExit=$work/cg.jsa -jar $B/braid.jar get -q --state-db "$work/s.db" -d "$work/out" "$url" >/dev/null 2>&1
ls -la $work/*.jsa
ms() { local t0 t1; rm -f "$work/out/one.bin"; t0=$(date +%s%N); "$@" >/dev/null 2>&1 || echo FAIL >&2; t1=$(date +%s%N); echo $(((t1 - t0) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for i in $(seq "$N"); do
  ms java -cp "$work/hello" Hello >>"$work/hello.ms"
  ms $B/braid get -q --state-db "$work/s.db" -d "$work/out" "$url" >>"$work/launcher.ms"
  ms java $serial -Xshare:auto -XX:SharedArchiveFile=$work/cs.jsa -jar $B/braid.jar get -q --state-db "$work/s.db" -d "$work/out" "$url" >>"$work/cs.ms"
  ms java $g1 -Xshare:auto -XX:SharedArchiveFile=$work/cg.jsa -jar $B/braid.jar get -q --state-db "$work/s.db" -d "$work/out" "$url" >>"$work/cg.ms"
done
for f in hello launcher cs cg; do echo "$f $(median < $work/$f.ms)"; done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
