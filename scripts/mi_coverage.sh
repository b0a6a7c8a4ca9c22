#!/usr/bin/env bash
# Copyright ©2026 The pearson Authors. All rights reserved.
# Use of this source code is governed by a BSD-style
# license that can be found in the LICENSE file.

# mi_coverage.sh is the 10⁶-row part of issue 37's coverage study of
# `pearson mi` at its defaults, through the command on a file it samples
# (blocks of rows, a two-stage design): for each case one CSV of ROWS rows
# (numpy, /usr/bin/python3, a fixed seed per case) and RUNS runs of
# `pearson mi --seed s` (s = 1…RUNS), each a fresh sample of the file. The
# truths are the population's, by closed form or by the quadratures of
# divergence/lsmicoverage_test.go (linkSMI; TestLinkSMIQuadrature checks
# them); a file of 10⁶ rows stands for its population to within its own
# sampling error (SMI's standard error at 10⁶ rows, well under the
# estimate's at the few thousand rows it reads). The 10³- and 10⁴-row
# parts are BenchmarkLSMICoverage (the same settings, in process).
#
# Usage: scripts/mi_coverage.sh           Environment: ROWS (10⁶), RUNS (20),
# PEARSON (a binary to run instead of building one), DIR (default: a new
# directory under /tmp, deleted at the end unless KEEP=1).
#
# Prints a Markdown table on standard output: the mean relative error and
# its spread over runs, the mean stderr over the truth, runs within
# ±2·stderr, runs flagged lower_bound, runs missed and not flagged, the mean
# error of the unflagged runs, and CPU seconds (user + sys) per run.

set -euo pipefail

ROWS=${ROWS:-1000000}
RUNS=${RUNS:-20}
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${DIR:-$(mktemp -d /tmp/pearson-mi.XXXXXX)}
mkdir -p "$dir"
if [[ "${KEEP:-0}" != 1 ]]; then
	trap 'rm -rf "$dir"' EXIT
fi
log() { echo "mi_coverage: $*" >&2; }
py=/usr/bin/python3
"$py" -c 'import numpy' 2>/dev/null || { log "needs numpy in $py (Debian python3-numpy)"; exit 1; }
[[ -x /usr/bin/time ]] || { log "needs /usr/bin/time (GNU time)"; exit 1; }
bin=${PEARSON:-}
if [[ -z $bin ]]; then
	log "building pearson in $dir"
	(cd "$repo" && go build -o "$dir/pearson" ./cmd/pearson)
	bin=$dir/pearson
fi

# name|truth|x columns|numpy expression for the columns (rng r, rows n)
cases=(
	"normal ρ = 0.5|0.16666667|x|x = r.standard_normal(n); y = 0.5*x + np.sqrt(0.75)*r.standard_normal(n); cols = [x, y]"
	"sin 3x + 0.3ε|0.85887|x|x = r.standard_normal(n); y = np.sin(3*x) + 0.3*r.standard_normal(n); cols = [x, y]"
	"sin 2x₁ + 0.5x₂ + 0.4ε, 1 irrelevant|1.38876|x1,x2,x3|x = r.standard_normal((3, n)); y = np.sin(2*x[0]) + 0.5*x[1] + 0.4*r.standard_normal(n); cols = [x[0], x[1], x[2], y]"
)

echo "| case | rows | truth | mean error | spread | stderr/truth | covered | flagged | missed unflagged | mean error unflagged | CPU-s/run |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
i=0
for c in "${cases[@]}"; do
	IFS='|' read -r name truth xs expr <<<"$c"
	i=$((i + 1))
	csv=$dir/case$i.csv
	log "generating $ROWS rows of $name"
	"$py" - "$csv" "$ROWS" "$xs" "$i" <<PY
import sys
import numpy as np
path, n, xs, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
r = np.random.default_rng(seed)
$expr
np.savetxt(path, np.column_stack(cols), delimiter=",", header=xs + ",y", comments="", fmt="%.6g")
PY
	out=$dir/case$i.jsonl
	: >"$out"
	for s in $(seq 1 "$RUNS"); do
		log "$name: run $s of $RUNS"
		/usr/bin/time -f '%U %S' -o "$dir/time" "$bin" mi --x "$xs" --y y --seed "$s" --format json "$csv" >"$dir/run.json"
		"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); u,s=open(sys.argv[2]).read().split()[-2:]; d["cpu"]=float(u)+float(s); print(json.dumps(d))' "$dir/run.json" "$dir/time" >>"$out"
	done
	"$py" - "$out" "$name" "$truth" <<'PY'
import json, sys
import numpy as np
rows = [json.loads(l) for l in open(sys.argv[1])]
name, truth = sys.argv[2], float(sys.argv[3])
e = np.array([r["smi"] / truth - 1 for r in rows])
se = np.array([r["stderr"] for r in rows])
lb = np.array([r["lower_bound"] for r in rows])
inside = np.abs(np.array([r["smi"] for r in rows]) - truth) <= 2 * se
for r, ok in zip(rows, inside):
    if not ok and not r["lower_bound"]:
        print(f"mi_coverage: miss: {name}, seed {r['seed']}: {r['smi']:.4f} ± {r['stderr']:.4f}, n {r['n']}", file=sys.stderr)
ue = f"{100 * e[~lb].mean():+.1f}%" if (~lb).any() else "—"
print(f"| {name} | {rows[0]['n']:.0f} | {truth:.4f} | {100 * e.mean():+.1f}% | {100 * e.std(ddof=1):.1f}% | {100 * se.mean() / truth:.1f}% | "
      f"{inside.sum()}/{len(rows)} | {lb.sum()} | {(~inside & ~lb).sum()} | {ue} | {np.mean([r['cpu'] for r in rows]):.2f} |")
PY
done
