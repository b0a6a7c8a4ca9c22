#!/usr/bin/env bash
# Copyright ©2026 The pearson Authors. All rights reserved.
# Use of this source code is governed by a BSD-style
# license that can be found in the LICENSE file.

# rank-bench.sh measures `pearson rank` end to end — wall time, CPU time and
# peak resident set, with /usr/bin/time — on a generated CSV of ROWS rows
# and 100 features f0…f99, uniform on [−1, 1], with a target
# y = f0 + f1² + f2·f3 + 0.3ε (ε standard normal; BenchmarkRank's data),
# once per --model in MODELS. Issue 13's target: 100 features × 10⁵ rows
# in under 10 s on two cores. Each cell is the median of RUNS runs with a
# warm page cache (one untimed run first). The input is generated in a
# temporary directory, never in the repository, and deleted at the end.
#
# Usage: scripts/rank-bench.sh [ROWS]   (default: 100000)
# Environment: RUNS (default 3), MODELS (default "auto kernel"), PEARSON
# (a pearson binary to time instead of building one: e.g. a build with a
# change under test), DIR (default: a new directory under /tmp), KEEP=1
# keeps the generated file, REUSE=1 (with DIR and KEEP=1) times the file an
# earlier KEEP=1 run left in DIR.
#
# Prints a Markdown table on standard output; progress on standard error.

set -euo pipefail

ROWS=${1:-100000}
RUNS=${RUNS:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${DIR:-$(mktemp -d /tmp/pearson-rank.XXXXXX)}
mkdir -p "$dir"
if [[ "${KEEP:-0}" != 1 ]]; then
	trap 'rm -rf "$dir"' EXIT
fi
log() { echo "rank-bench: $*" >&2; }

[[ -x /usr/bin/time ]] || { log "needs /usr/bin/time (GNU time)"; exit 1; }
bin=${PEARSON:-}
if [[ -z $bin ]]; then
	log "building pearson in $dir"
	(cd "$repo" && go build -o "$dir/pearson" ./cmd/pearson)
	bin=$dir/pearson
fi

csv=$dir/rank-$ROWS.csv
if [[ "${REUSE:-0}" == 1 && -s $csv ]]; then
	log "reusing $csv"
else
	log "generating $ROWS rows"
	mawk -v n="$ROWS" 'BEGIN {
		srand(1)
		for (j = 0; j < 100; j++) printf "f%d,", j
		print "y"
		for (i = 0; i < n; i++) {
			for (j = 0; j < 100; j++) {
				f[j] = 2 * rand() - 1
				printf "%.4f,", f[j]
			}
			e = sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand())
			printf "%.4f\n", f[0] + f[1] * f[1] + f[2] * f[3] + 0.3 * e
		}
	}' >"$csv"
fi

# median prints the median of its arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $ROWS rows, 100 features, $(awk -v b="$(stat -c %s "$csv")" 'BEGIN { printf "%.0f", b / 1e6 }') MB; medians of $RUNS runs"
echo
echo "| model | wall | CPU | peak RSS | walls | top 4 (model) |"
echo "|---|---|---|---|---|---|"
for model in ${MODELS:-auto kernel}; do
	log "--model $model"
	top=$("$bin" rank --target y --model "$model" --top 4 --format csv "$csv" 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ printf "%s%s (%s)", (NR > 2 ? ", " : ""), $c["feature"], $c["model"] }')
	walls=() cpus=() rsss=()
	for ((r = 0; r < RUNS; r++)); do
		/usr/bin/time -o "$dir/time" -f '%e %U %S %M' "$bin" rank --target y --model "$model" "$csv" >/dev/null 2>"$dir/stderr" ||
			{ log "--model $model: $(tail -1 "$dir/stderr")"; exit 1; }
		read -r w u s m <<<"$(tail -1 "$dir/time")"
		walls+=("$w")
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')")
		rsss+=("$m")
	done
	echo "| $model | $(median "${walls[@]}") s | $(median "${cpus[@]}") s | $(awk -v k="$(median "${rsss[@]}")" 'BEGIN { printf "%.0f", k / 1024 }') MB | ${walls[*]} | $top |"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
