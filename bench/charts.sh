#!/usr/bin/env bash
# bench/charts.sh RESULTS_DIR... - draws chart.png in each results directory from its runs.csv:
# the scenario's rate per tool (MiB/s, files/s, or wall s for start-up) and CPU seconds per tool,
# medians over the good runs. Needs gnuplot (bench/setup.sh installs gnuplot-nox).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "charts.sh: $*" >&2; exit 1; }
say() { echo "charts.sh: $*" >&2; }
source "$HERE/lib.sh"
command -v gnuplot >/dev/null || die "gnuplot not found: run bench/setup.sh"
for dir in "$@"; do
  csv=$dir/runs.csv
  [[ -s $csv ]] || { say "no $csv"; continue; }
  tmp=$(mktemp -d)
  sed '1s/sha_ok/ok/' "$csv" > "$tmp/runs.csv"            # ranged.sh names the check sha_ok
  header=$(head -1 "$tmp/runs.csv")
  if [[ $header == *files_per_s* ]]; then rate=files_per_s; label="files/s (higher is better)"
  elif [[ $header == *mib_per_s* ]]; then rate=mib_per_s; label="MiB/s (higher is better)"
  else rate=wall_s; label="wall s (lower is better)"; fi
  medians "$tmp/runs.csv" "$rate" cpu_s | tail -n +2 | tr ',' ' ' > "$tmp/m.dat"
  [[ -s $tmp/m.dat ]] || { say "no good runs in $csv"; rm -rf "$tmp"; continue; }
  title=$(basename "$dir")
  gnuplot <<GP
set terminal pngcairo size 1000,420 font "sans,10"
set output "$dir/chart.png"
set multiplot layout 1,2 title "$title: medians of the runs in runs.csv"
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.7
set grid ytics
set yrange [0:*]
set xtics rotate by -30
unset key
set title "$label"
plot "$tmp/m.dat" using 2:xtic(1) linecolor rgb "#3b75af", '' using 0:2:(sprintf("%.3g", \$2)) with labels offset 0,0.7 notitle
set title "CPU s, user + sys (lower is better)"
plot "$tmp/m.dat" using 3:xtic(1) linecolor rgb "#c0504d", '' using 0:3:(sprintf("%.3g", \$3)) with labels offset 0,0.7 notitle
unset multiplot
GP
  rm -rf "$tmp"
  say "wrote $dir/chart.png"
done
