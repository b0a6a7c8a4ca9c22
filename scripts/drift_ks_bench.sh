#!/bin/sh
# Times `pearson drift REF CUR` (at its defaults) against scripts/ks_reference.py
# (pandas + scipy KS with Benjamini-Hochberg) on the same files, side by side
# in one run: for each size ROWSxCOLS of SIZES (default 10^3 x 20, 10^4 x 20,
# 10^5 x 100 and 10^6 x 100) it writes ref.csv and cur.csv with
# scripts/drift_bench_data.py under WORK (default a temporary directory,
# removed after; 10^6 x 100 takes about 1.4 GB), then runs the two
# alternately RUNS times each (default 3) and prints a Markdown row of CPU
# seconds (user + system, medians) and their ratio, with the load average.
# Usage: drift_ks_bench.sh PEARSON [RUNS]
#   SIZES="1000x20 10000x20" WORK=/tmp/bench drift_ks_bench.sh ./pearson 3
set -eu
pearson=$1 runs=${2:-3}
sizes=${SIZES:-"1000x20 10000x20 100000x100 1000000x100"}
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
tmp=$(mktemp)
work=${WORK:-}
clean=""
if [ -z "$work" ]; then
	work=$(mktemp -d)
	clean=$work
fi
trap 'rm -f "$tmp"; [ -z "$clean" ] || rm -rf "$clean"' EXIT
median() { echo "$@" | tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| rows × columns | pearson drift CPU s | pandas + scipy KS CPU s | ratio | runs | load average |"
echo "|---|---|---|---|---|---|"
for size in $sizes; do
	rows=${size%x*} cols=${size#*x}
	dir=$work/$size
	[ -f "$dir/cur.csv" ] || "$py" "$here/drift_bench_data.py" "$rows" "$dir" "$cols"
	p="" k="" i=0
	while [ "$i" -lt "$runs" ]; do
		/usr/bin/time -o "$tmp" -f "%U %S" "$pearson" drift "$dir/ref.csv" "$dir/cur.csv" >/dev/null 2>&1 || true
		p="$p $(awk '{print $1 + $2}' "$tmp")"
		/usr/bin/time -o "$tmp" -f "%U %S" "$py" "$here/ks_reference.py" "$dir/ref.csv" "$dir/cur.csv" >/dev/null
		k="$k $(awk '{print $1 + $2}' "$tmp")"
		i=$((i + 1))
	done
	mp=$(median $p) mk=$(median $k)
	echo "| $rows × $cols | $mp ($p ) | $mk ($k ) | $(awk -v a="$mp" -v b="$mk" 'BEGIN {printf "%.2f", a / b}') | $runs | $(uptime | sed 's/.*load average: //') |"
	[ -z "$clean" ] || rm -rf "$dir"
done
