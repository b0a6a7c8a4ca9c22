#!/usr/bin/env bash
# Speed and memory of the segmentation (`pearson changepoint` at its
# defaults) beside the Go PELT of package changepoint's benchmark
# (mean-and-variance cost, SIC penalty, exact: BenchmarkSegmentVsPELT), in
# one run, and the streaming detector's rate (issue 36).
#
#   scripts/changepoint_speed.sh [ROWS...]   (default: 1000 100000 1000000 10000000)
#
# Series: BenchmarkSegmentVsPELT's recipe (white noise whose mean shifts by
# 1.5 every tenth of the series), written as CSV by numpy (Debian's
# python3), and white noise without a change (the segmentation's largest
# memory: one segment). Each command runs in its own process under
# /usr/bin/time: CPU = user + system seconds, peak = maximum RSS. PELT runs
# on the benchmark's own draw of the same recipe, up to 10⁶ rows, for at
# most 120 s (on segments of T/10 rows its pruning keeps most starts:
# O(T²/10)). --max-memory is checked on both series: a budget of the
# measured peak must be refused and one 20% above it accepted. The stream
# rate is rows over CPU seconds of `--stream` on 10⁵ rows. Run it on a
# quiet machine, niced; 10⁷ rows take minutes and more than 1 GB.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(1000 100000 1000000 10000000)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/pearson" ./cmd/pearson
go test -c -o "$dir/cp.test" ./changepoint
py=/usr/bin/python3

gen() { # gen ROWS KIND FILE: KIND shifts or noise
	"$py" - "$@" <<'PY'
import sys, numpy as np
rows, kind, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
x = np.random.default_rng(12).standard_normal(rows)
if kind == "shifts":
    x[(np.arange(rows) // max(1, rows // 10)) % 2 == 1] += 1.5
np.savetxt(out, x, fmt="%.6f", header="x", comments="")
PY
}

# timed LIMIT CMD...: runs CMD, sets cpu (s), peak (KB) and rc.
timed() {
	local limit=$1
	shift
	rc=0
	timeout "$limit" /usr/bin/time -f '%U %S %M' -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
	read -r u s peak <"$dir/time" || true
	cpu=$(awk -v u="${u:-0}" -v s="${s:-0}" 'BEGIN{printf "%.2f", u+s}')
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-24s %-24s %-30s %s\n' rows "pearson CPU / peak" "Go PELT CPU / peak" "noise: pearson CPU / peak" "--max-memory peak / 1.2 peak (noise; shifts)"
for n in "${rows[@]}"; do
	gen "$n" shifts "$dir/shifts.csv"
	gen "$n" noise "$dir/noise.csv"
	timed 3600 "$dir/pearson" changepoint --format csv "$dir/shifts.csv"
	[ "$rc" = 0 ] || { cat "$dir/err"; exit 1; }
	ours="$cpu s / $((peak / 1024)) MB"
	shiftsPeak=$peak
	pelt="not run (> 10⁶ rows)"
	if [ "$n" -le 1000000 ]; then
		timed 120 "$dir/cp.test" -test.run '^$' -test.bench "SegmentVsPELT/PELT/rows=$n\$" -test.benchtime 1x
		pelt="$cpu s / $((peak / 1024)) MB"
		[ "$rc" = 0 ] || pelt="not finished in 120 s"
	fi
	timed 3600 "$dir/pearson" changepoint --format csv "$dir/noise.csv"
	[ "$rc" = 0 ] || { cat "$dir/err"; exit 1; }
	noise="$cpu s / $((peak / 1024)) MB"
	budget=""
	for f in noise:$peak shifts:$shiftsPeak; do
		file=${f%%:*} p=${f#*:}
		timed 3600 "$dir/pearson" changepoint --format csv --max-memory "${p}K" "$dir/$file.csv"
		at=$([ "$rc" = 1 ] && grep -q 'would need about' "$dir/err" && echo refused || echo "accepted (rc $rc)")
		timed 3600 "$dir/pearson" changepoint --format csv --max-memory "$((p * 12 / 10))K" "$dir/$file.csv"
		above=$([ "$rc" = 0 ] && echo accepted || echo "refused (rc $rc)")
		budget+="$at / $above; "
	done
	printf '%-9s %-24s %-24s %-30s %s\n' "$n" "$ours" "$pelt" "$noise" "${budget%; }"
done
gen 100000 shifts "$dir/shifts.csv"
timed 3600 "$dir/pearson" changepoint --stream --format csv "$dir/shifts.csv"
echo "stream: 100000 rows in $cpu CPU-s ($(awk -v c="$cpu" 'BEGIN{printf "%.0f", 100000/c}') rows/s), peak $((peak / 1024)) MB"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
