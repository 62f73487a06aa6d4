#!/usr/bin/env bash
# bench/fuzz.sh - the long run of the parsers' fuzz targets: Jazzer (coverage-guided, libFuzzer)
# on each @FuzzTest method in turn, for DURATION seconds each. The test suite only replays each
# target's inputs (src/test/resources/.../<Class>Inputs/<method>/); this searches for new ones.
#
# Usage: bench/fuzz.sh [TARGET] [DURATION]
#   TARGET: Class#method (MetalinkFuzzTest#metalink), a Class (each of its @FuzzTest methods), or
#           all [default]: every *FuzzTest class of the modules; several separated by commas
#   DURATION: seconds of fuzzing per method [60]
# Variables [defaults]: RESULTS [bench/results/<date>-fuzz[-N]]
#
# What it keeps:
# - the corpus each method grows, in <module>/.cifuzz-corpus/<Class>/<method>/ (not committed; the
#   next run starts from it);
# - a crashing input, written by Jazzer into the method's inputs folder in src/test/resources:
#   from then on the test suite replays it, and fails until the parser is fixed. Commit it.
# - per method, the log (RESULTS/logs/) and a line of summary.md: executions, coverage, corpus,
#   the finding if any.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
TARGET=${1:-all} DURATION=${2:-60}
die() { echo "fuzz.sh: $*" >&2; exit 1; }
say() { echo "fuzz.sh: $*" >&2; }
[[ $DURATION =~ ^[0-9]+$ && $DURATION -gt 0 ]] || die "DURATION '$DURATION' is not a number of seconds"
command -v mvn >/dev/null || die "missing mvn"

# class file -> module; class -> its @FuzzTest methods (the method header follows its annotations)
class_file() { find "$REPO"/*/src/test/java -name "$1.java" | head -1; }
methods_of() { awk '/@FuzzTest/ {f=1} f && /void [a-zA-Z0-9_]+\(/ {match($0, /void [a-zA-Z0-9_]+\(/); print substr($0, RSTART+5, RLENGTH-6); f=0}' "$1"; }

targets=()
for one in ${TARGET//,/ }; do
  case $one in
    all) for f in $(find "$REPO"/*/src/test/java -name '*FuzzTest.java' | sort); do
           for m in $(methods_of "$f"); do targets+=("$(basename "$f" .java)#$m"); done; done ;;
    *'#'*) targets+=("$one") ;;
    *) f=$(class_file "$one"); [[ -n $f ]] || die "no test class $one"
       for m in $(methods_of "$f"); do targets+=("$one#$m"); done ;;
  esac
done
[[ ${#targets[@]} -gt 0 ]] || die "no @FuzzTest method in $TARGET"

if [[ -z ${RESULTS:-} ]]; then
  RESULTS=$HERE/results/$(date +%F)-fuzz
  for i in $(seq 2 99); do [[ -e $RESULTS ]] || break; RESULTS=$HERE/results/$(date +%F)-fuzz-$i; done
fi
mkdir -p "$RESULTS/logs"
summary=$RESULTS/summary.md
# a second run into the same RESULTS adds its rows under a line of its own
[[ -e $summary ]] || printf '# Fuzzing\n\n| target | seconds | executions | exec/s | coverage (edges) | corpus | result |\n|---|---|---|---|---|---|---|\n' > "$summary"
echo "| \`bench/fuzz.sh $TARGET $DURATION\` at $(git -C "$REPO" rev-parse --short HEAD), $(date -u '+%F %H:%M UTC'), $(nproc) cores | | | | | | |" >> "$summary"

failed=0
for t in "${targets[@]}"; do
  class=${t%%#*} method=${t#*#}
  file=$(class_file "$class"); [[ -n $file ]] || die "no test class $class"
  module=$(basename "${file%%/src/test/java/*}")
  log=$RESULTS/logs/$class-$method.log
  say "$t ($module): $DURATION s"
  # one fuzz test per JVM (Jazzer's rule); the agent on (the suite leaves it off); the duration as
  # libFuzzer's -max_total_time, which overrides the annotation's
  set +e
  (cd "$REPO" && JAZZER_FUZZ=1 mvn -B -o -pl "$module" -am test -Dtest="$t" -Dsurefire.failIfNoSpecifiedTests=false \
    -Djazzer.hooks=true -Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1=-max_total_time="$DURATION") > "$log" 2>&1
  rc=$?
  set -e
  done_line=$(grep -aE '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 || true)
  last=$(grep -aE '^#[0-9]+[[:space:]]+(pulse|NEW|REDUCE|DONE|INITED)' "$log" | tail -1 || true)
  execs=$(sed -nE 's/^Done ([0-9]+) runs in ([0-9]+).*/\1/p' <<< "$done_line")
  secs=$(sed -nE 's/^Done ([0-9]+) runs in ([0-9]+).*/\2/p' <<< "$done_line")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<< "$last")
  corp=$(sed -nE 's/.* corp: ([0-9]+\/[0-9a-zA-Z]+).*/\1/p' <<< "$last")
  if [[ $rc -eq 0 ]]; then
    result="no finding"
  elif ! grep -aq 'INFO: Seed:' "$log"; then
    failed=1
    result="FAILED before fuzzing (a build error? see the log)"
  else
    failed=1
    finding=$(grep -aE '^(== Java Exception|Caused by|java\.|org\.opentest4j)' "$log" | head -1 | cut -c1-160 || true)
    crash=$(grep -aoE 'artifact_prefix=[^ ]*|Test unit written to [^ ]*' "$log" | tail -1 || true)
    result="FINDING: ${finding:-see log} ${crash:+($crash)}"
  fi
  rate=-; [[ -n $execs && -n $secs && $secs -gt 0 ]] && rate=$((execs / secs))
  echo "| $t | ${secs:--} | ${execs:--} | $rate | ${cov:--} | ${corp:--} | $result |" >> "$summary"
  say "$t: ${execs:-?} executions, coverage ${cov:-?}, $result"
done
say "summary: $summary"
exit $failed
