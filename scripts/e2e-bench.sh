#!/usr/bin/env bash
# Copyright ©2026 The pearson Authors. All rights reserved.
# Use of this source code is governed by a BSD-style
# license that can be found in the LICENSE file.

# e2e-bench.sh measures `pearson divergence` end to end — wall time and peak
# resident set, with /usr/bin/time — on generated two-column inputs (group,x)
# of 10⁶, 10⁷ and 10⁸ rows, sampled (the default: rows drawn at random
# positions) against --scan (every row read), as CSV and, when DuckDB can
# write it, as Parquet. Each cell is the median of RUNS runs with a warm page
# cache; as root, the same again with a cold one (the page cache dropped
# before each run). The inputs are generated in a temporary directory, never
# in the repository, and deleted at the end.
#
# Usage: scripts/e2e-bench.sh [ROWS...]   (default: 1000000 10000000 100000000)
# Environment: RUNS (default 3), DIR (default: a new directory under /tmp),
# KEEP=1 keeps the generated files, REUSE=1 (with DIR and KEEP=1) measures
# the files an earlier KEEP=1 run left in DIR instead of writing them again, MODES (default "sampled scanned"),
# PARQUET=0 skips Parquet, FORMATS (default "csv parquet": the inputs
# timed; the CSV file is generated all the same, as DuckDB's source), COLD=0
# skips the cold runs, DUCKDB_MODULES (default
# /tmp/research/node_modules: where @duckdb/node-api is installed; without
# it the Parquet rows are skipped).
#
# Prints a Markdown table on standard output, then the wall time ratio of
# the largest to the smallest size per input and mode; progress on
# standard error.
#
# To measure again the files of an earlier run, the sampled runs only:
#
#	KEEP=1 DIR=/tmp/e2e scripts/e2e-bench.sh 1000000 100000000   # once: writes the files
#	REUSE=1 KEEP=1 DIR=/tmp/e2e RUNS=5 MODES=sampled COLD=0 scripts/e2e-bench.sh 1000000 100000000

set -euo pipefail

ROWS=("${@:-1000000 10000000 100000000}")
read -r -a ROWS <<<"${ROWS[*]}"
RUNS=${RUNS:-3}
DUCKDB_MODULES=${DUCKDB_MODULES:-/tmp/research/node_modules}
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${DIR:-$(mktemp -d /tmp/pearson-e2e.XXXXXX)}
mkdir -p "$dir"
if [[ "${KEEP:-0}" != 1 ]]; then
	trap 'rm -rf "$dir"' EXIT
fi
log() { echo "e2e-bench: $*" >&2; }

[[ -x /usr/bin/time ]] || { log "needs /usr/bin/time (GNU time)"; exit 1; }
log "building pearson in $dir"
(cd "$repo" && go build -o "$dir/pearson" ./cmd/pearson)

cold=0
if [[ "${COLD:-1}" == 0 ]]; then
	:
elif [[ $(id -u) == 0 ]] && (sync && echo 3 >/proc/sys/vm/drop_caches) 2>/dev/null; then
	cold=1
else
	log "cannot drop the page cache (needs root): warm runs only"
fi
parquet=0
if [[ "${PARQUET:-1}" == 0 ]]; then
	:
elif [[ -d "$DUCKDB_MODULES/@duckdb/node-api" ]] && command -v node >/dev/null; then
	parquet=1
else
	log "no @duckdb/node-api in $DUCKDB_MODULES: Parquet skipped"
fi

# gen N FILE writes N rows of "group,x": group A or B with probability ½,
# x normal with mean 0 (A) or ½ (B), four decimals; the same rows for the
# same N.
gen() {
	mawk -v n="$1" 'BEGIN {
		srand(1); print "group,x"
		for (i = 0; i < n; i++) {
			z = sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand())
			if (rand() < 0.5) printf "A,%.4f\n", z; else printf "B,%.4f\n", z + 0.5
		}
	}' >"$2"
}

# toParquet CSV PARQUET converts with DuckDB (zstd, its default row groups).
toParquet() {
	NODE_PATH="$DUCKDB_MODULES" node -e '
		const { DuckDBInstance } = require("@duckdb/node-api");
		(async () => {
			const db = await DuckDBInstance.create(":memory:");
			const con = await db.connect();
			const lit = s => "\x27" + s.replaceAll("\x27", "\x27\x27") + "\x27";
			await con.run(`COPY (SELECT * FROM read_csv(${lit(process.argv[1])}, header = true,
				columns = {\x27group\x27: \x27VARCHAR\x27, \x27x\x27: \x27DOUBLE\x27}))
				TO ${lit(process.argv[2])} (FORMAT parquet, COMPRESSION zstd)`);
		})().catch(e => { console.error(e); process.exit(1); });
	' "$1" "$2"
}

# median prints the median of its arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure FILE COLD [FLAGS...] runs pearson RUNS times and prints
# "wall_s cpu_s rss_mb", medians (cpu: user + system time, which the load
# of a shared machine disturbs less than the wall time); COLD=1 drops the
# page cache before each run. A failed run prints "failed".
measure() {
	local file=$1 coldrun=$2
	shift 2
	local walls=() cpus=() rsss=() r w u s m
	for ((r = 0; r < RUNS; r++)); do
		if [[ $coldrun == 1 ]]; then
			sync
			echo 3 >/proc/sys/vm/drop_caches
		fi
		if ! /usr/bin/time -o "$dir/time" -f '%e %U %S %M' "$dir/pearson" divergence --group group "$@" "$file" >/dev/null 2>"$dir/stderr"; then
			log "$(basename "$file") $*: $(tail -1 "$dir/stderr")"
			echo failed
			return
		fi
		read -r w u s m <<<"$(tail -1 "$dir/time")"
		walls+=("$w")
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')")
		rsss+=("$m")
	done
	echo "$(median "${walls[@]}") $(median "${cpus[@]}") $(awk -v k="$(median "${rsss[@]}")" 'BEGIN { printf "%.0f", k / 1024 }')"
}

declare -A wallOf # warm wall time by "input mode rows"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; medians of $RUNS runs"
echo
if [[ $cold == 1 ]]; then
	echo "| rows | input | size | asked (done) | wall, warm | CPU, warm | peak RSS, warm | wall, cold | CPU, cold | peak RSS, cold |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
else
	echo "| rows | input | size | asked (done) | wall, warm | CPU, warm | peak RSS, warm |"
	echo "|---|---|---|---|---|---|---|"
fi
for n in "${ROWS[@]}"; do
	csv="$dir/data-$n.csv"
	if [[ "${REUSE:-0}" == 1 && -s $csv ]]; then
		log "reusing $csv"
	else
		log "generating $n rows"
		gen "$n" "$csv"
	fi
	inputs=("$csv")
	if [[ $parquet == 1 ]]; then
		if [[ "${REUSE:-0}" == 1 && -s "$dir/data-$n.parquet" ]]; then
			inputs+=("$dir/data-$n.parquet")
		else
			log "converting $n rows to Parquet"
			toParquet "$csv" "$dir/data-$n.parquet" && inputs+=("$dir/data-$n.parquet")
		fi
	fi
	for f in "${inputs[@]}"; do
		[[ " ${FORMATS:-csv parquet} " == *" ${f##*.} "* ]] || continue
		size=$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.0f", b / 1e6 }')
		for mode in ${MODES:-sampled scanned}; do
			flags=()
			[[ $mode == scanned ]] && flags=(--scan)
			log "$(basename "$f") $mode"
			# One untimed run puts the file in the page cache and says how
			# the file was read: a file too small for sampling is scanned.
			how=$("$dir/pearson" divergence --group group --format json "${flags[@]}" "$f" 2>/dev/null |
				sed -n 's/.*"read_p":"\([a-z]*\)".*/\1/p') || true
			read -r w c m <<<"$(measure "$f" 0 "${flags[@]}")"
			row="| $n | ${f##*.} | ${size} MB | $mode (${how:-?}) | ${w} s | ${c:-} s | ${m:-} MB |"
			if [[ $w == failed ]]; then
				row="| $n | ${f##*.} | ${size} MB | $mode | failed | | |"
				[[ $cold == 1 ]] && row+=" | | |"
			elif [[ $cold == 1 ]]; then
				read -r w c m <<<"$(measure "$f" 1 "${flags[@]}")"
				row+=" ${w} s | ${c} s | ${m} MB |"
			fi
			echo "$row"
			[[ $w == failed ]] || wallOf["${f##*.} $mode $n"]=$w
		done
	done
	[[ "${KEEP:-0}" == 1 ]] || rm -f "$dir"/data-"$n".*
done
echo
# The ratio of the largest to the smallest size, per input and mode (warm
# wall times; the issue's target is at most 2 from 10⁶ to 10⁸ rows).
lo=${ROWS[0]} hi=${ROWS[${#ROWS[@]}-1]}
if [[ $lo != "$hi" ]]; then
	for key in "${!wallOf[@]}"; do
		read -r fmt mode n <<<"$key"
		[[ $n == "$hi" && -n "${wallOf["$fmt $mode $lo"]:-}" ]] || continue
		awk -v a="${wallOf["$fmt $mode $hi"]}" -v b="${wallOf["$fmt $mode $lo"]}" -v f="$fmt" -v m="$mode" -v hi="$hi" -v lo="$lo" \
			'BEGIN { if (b > 0) printf "%s %s: %s / %s rows, wall time ratio %.2f\n", f, m, hi, lo, a / b }'
	done | sort
	echo
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
