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
#
# Packages run one after the other, so that their times do not mix; the
# tests inside a package run as go test runs them (t.Parallel). The build is
# done first and not counted.
set -euo pipefail
cd "$(dirname "$0")/.."

flags=()
pkgs=()
for a in "$@"; do
	case "$a" in
	-*) flags+=("$a") ;;
	*) pkgs+=("$a") ;;
	esac
done
[ ${#pkgs[@]} -gt 0 ] || mapfile -t pkgs < <(go list ./...)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

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
