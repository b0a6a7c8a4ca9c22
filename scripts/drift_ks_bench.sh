#!/bin/sh
# Times `pearson drift REF CUR` against scripts/ks_reference.py (pandas +
# scipy KS with Benjamini-Hochberg) on the same files, alternating, RUNS
# times each (default 3), and prints each run's CPU seconds (user + system)
# and the medians, with the load average beside them.
# Usage: drift_ks_bench.sh PEARSON DIR [RUNS]  (DIR holds ref.csv and cur.csv,
# as scripts/drift_bench_data.py writes them).
set -eu
pearson=$1 dir=$2 runs=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
p="" k=""
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
	/usr/bin/time -o "$tmp" -f "%U %S" "$pearson" drift "$dir/ref.csv" "$dir/cur.csv" >/dev/null 2>&1 || true
	p="$p $(awk '{print $1 + $2}' "$tmp")"
	/usr/bin/time -o "$tmp" -f "%U %S" "$py" "$here/ks_reference.py" "$dir/ref.csv" "$dir/cur.csv" >/dev/null
	k="$k $(awk '{print $1 + $2}' "$tmp")"
	i=$((i + 1))
done
median() { echo "$@" | tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "$dir: pearson drift CPU s:$p (median $(median $p)); pandas+scipy KS CPU s:$k (median $(median $k)); $(uptime | sed 's/.*load/load/')"
