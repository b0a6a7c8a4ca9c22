#!/usr/bin/env bash
# Times the tests package by package, as docs/RESULTS.md ("The tests' own
# time") reports them: wall and CPU seconds (user + system, which other jobs
# on the machine do not inflate) of each package's test binary, and its
# slowest tests. Give the tier and mode as go test would take them:
#
#   scripts/test-times.sh                      # the default tier
#   scripts/test-times.sh -race                # CI's race run
#   PEARSON_LONG=1 scripts/test-times.sh       # both tiers
#   scripts/test-times.sh -race ./cmd/pearson  # one package
#   scripts/test-times.sh -per-test ./divergence  # CPU seconds of each test
#
# Packages run one after the other, so that their times do not mix; the
# tests inside a package run as go test runs them (t.Parallel). The build is
# done first and not counted.
#
# -per-test runs each package's test binary with -test.parallel=1, so that
# one test runs at a time, samples the binary's CPU time every half second
# (/proc) and prints the CPU seconds each test took: its own cost, which its
# wall time on a shared machine does not tell (Linux only).
set -euo pipefail
cd "$(dirname "$0")/.."

flags=()
pkgs=()
pertest=""
for a in "$@"; do
	case "$a" in
	-per-test) pertest=yes ;;
	-*) flags+=("$a") ;;
	*) pkgs+=("$a") ;;
	esac
done
[ ${#pkgs[@]} -gt 0 ] || mapfile -t pkgs < <(go list ./...)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

if [ -n "$pertest" ]; then
	for p in "${pkgs[@]}"; do
		dir=$(go list -f '{{.Dir}}' "$p")
		rm -f "$out/bin"
		go test "${flags[@]}" -c -o "$out/bin" "$p"
		[ -x "$out/bin" ] || continue # no test files
		: >"$out/cpu"
		(cd "$dir" && exec go tool test2json -t "$out/bin" -test.v -test.count=1 -test.timeout 60m -test.parallel=1) >"$out/json" &
		runner=$!
		pid=""
		while [ -z "$pid" ] && kill -0 "$runner" 2>/dev/null; do
			pid=$(pgrep -f "^$out/bin -test.v" || true)
			sleep 0.1
		done
		while [ -n "$pid" ] && [ -r "/proc/$pid/stat" ]; do
			# utime, stime and the children's: fields 14-17, in clock ticks.
			read -r -a f <"/proc/$pid/stat" || break
			echo "$(date +%s.%N) $((f[13] + f[14] + f[15] + f[16]))" >>"$out/cpu"
			sleep 0.5
		done
		wait "$runner" || true
		echo "== ${p#github.com/sublinear/pearson/} (load average $(cut -d' ' -f1-3 /proc/loadavg))"
		python3 - "$out/json" "$out/cpu" "$(getconf CLK_TCK)" <<'EOF'
import bisect, json, sys
from datetime import datetime
T, C = [], []
for line in open(sys.argv[2]):
    a, b = line.split()
    T.append(float(a))
    C.append(int(b) / float(sys.argv[3]))
def cpu(t):
    if not T:
        return 0.0
    i = bisect.bisect_left(T, t)
    if i <= 0 or i >= len(T):
        return C[min(max(i, 0), len(C) - 1)]
    return C[i - 1] + (C[i] - C[i - 1]) * (t - T[i - 1]) / (T[i] - T[i - 1])
rows = []
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    t = e.get("Test")
    if t and "/" not in t and e["Action"] in ("pass", "fail"):
        end = datetime.fromisoformat(e["Time"].replace("Z", "+00:00")).timestamp()
        rows.append((cpu(end) - cpu(end - e["Elapsed"]), e["Elapsed"], t + ("" if e["Action"] == "pass" else " FAIL")))
rows.sort(reverse=True)
for c, w, t in rows:
    if c >= 0.5:
        print(f"{c:8.1f} CPU s {w:8.1f} wall s  {t}")
print(f"{sum(r[0] for r in rows):8.1f} CPU s in the tests, {C[-1] if C else 0:.1f} in the binary")
EOF
	done
	exit 0
fi


go test "${flags[@]}" -count=1 -run '^$' "${pkgs[@]}" >/dev/null
printf '%-45s %8s %8s  %s\n' package wall_s cpu_s "slowest tests (s)"
total_wall=0 total_cpu=0
for p in "${pkgs[@]}"; do
	/usr/bin/time -f '%e %U %S' -o "$out/time" go test "${flags[@]}" -count=1 -timeout 60m -json "$p" >"$out/json" || true
	read -r wall user sys <"$out/time"
	slow=$(python3 - "$out/json" <<'EOF'
import json, sys
rows = []
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("Action") in ("pass", "fail") and e.get("Test") and "/" not in e["Test"]:
        rows.append((e["Elapsed"], e["Test"] + ("" if e["Action"] == "pass" else " FAIL")))
rows.sort(reverse=True)
print(", ".join(f"{n} {t:.0f}" for t, n in rows[:4]))
EOF
)
	printf '%-45s %8.0f %8.1f  %s\n' "${p#github.com/sublinear/pearson/}" "$wall" "$(echo "$user + $sys" | bc)" "$slow"
	total_wall=$(echo "$total_wall + $wall" | bc)
	total_cpu=$(echo "$total_cpu + $user + $sys" | bc)
done
# The packages one after the other: go test ./... runs GOMAXPROCS of them
# at a time, so its wall time on an idle machine lies between the total CPU
# over the cores and the total wall here.
printf '%-45s %8.0f %8.1f  %s\n' total "$total_wall" "$total_cpu" "load average $(cut -d' ' -f1-3 /proc/loadavg)"
