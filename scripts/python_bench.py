#!/usr/bin/env python3
"""Side-by-side timings of the pearson Python package and the Python tools
people use for the same questions (not a test; the table goes to
docs/RESULTS.md, section "Python").

    /usr/bin/python3 -m venv --system-site-packages /tmp/v
    /tmp/v/bin/pip install --no-build-isolation --no-index ./python
    /tmp/v/bin/python scripts/python_bench.py [--rows 10000,100000,1000000]

Each row runs both sides in this one process, one after the other, on the
same data: CPU seconds (user+sys of this process and its children, so the
pearson command's own time counts) and wall seconds, plus each side's
answer. Comparisons:

- pearson.test (defaults: 1000 permutations) against
  scipy.stats.permutation_test with the energy statistic (O(n²) per
  permutation: run on the first SCIPY_ROWS rows of each sample, 99
  permutations, and said so);
- pearson.smi_scores (99 permutations) against
  sklearn.feature_selection.mutual_info_regression (kNN, no p-values);
- pearson.drift (defaults) against a pandas loop of scipy.stats.ks_2samp
  per column with Benjamini–Hochberg;
- the binding's own cost: an empty call (the command's start and exit) and
  handing over a 10⁶ × 10 DataFrame (writing the .npz).
"""

import argparse
import os
import resource
import subprocess
import time

import numpy as np
import pandas as pd

import pearson
from pearson import _core

SCIPY_ROWS = 1000
SKLEARN_MAX = 100_000


def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def timed(fn):
    c0, w0 = cpu(), time.perf_counter()
    out = fn()
    return out, cpu() - c0, time.perf_counter() - w0


def scipy_energy_test(P, Q):
    """scipy.stats.permutation_test with the energy statistic on rows: the
    samples are passed as row indices into the pooled matrix (permutation_test
    permutes 1-D samples)."""
    from scipy import stats
    from scipy.spatial.distance import cdist
    Z = np.vstack([P[:SCIPY_ROWS], Q[:SCIPY_ROWS]])

    def energy(i, j, axis=-1):
        x, y = Z[i.astype(int)], Z[j.astype(int)]
        return 2 * cdist(x, y).mean() - cdist(x, x).mean() - cdist(y, y).mean()

    n = min(SCIPY_ROWS, len(P))
    r = stats.permutation_test((np.arange(n), np.arange(n, 2 * n)), energy, vectorized=False,
                               n_resamples=99, alternative="greater", random_state=1)
    return r.pvalue


def ks_drift(ref, cur):
    from scipy import stats
    p = np.array([stats.ks_2samp(ref[c].to_numpy(), cur[c].to_numpy()).pvalue for c in ref.columns])
    order = np.argsort(p)
    q = np.empty_like(p)
    m = len(p)
    q[order] = np.minimum.accumulate((p[order] * m / np.arange(1, m + 1))[::-1])[::-1]
    return int((q < 0.05).sum())


def row(table, what, n, side, out, c, w):
    table.append((what, n, side, c, w, out))
    print(f"| {what} | {n:,} | {side} | {c:.2f} | {w:.2f} | {out} |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", default="10000,100000,1000000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.rows.split(",")]
    rng = np.random.default_rng(1)
    table = []
    print(f"load average at start: {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores")
    print("| comparison | rows | side | CPU s | wall s | answer |")
    print("|---|---|---|---|---|---|")

    # The binding's own cost.
    _, c, w = timed(lambda: subprocess.run([pearson.binary(), "--version"], capture_output=True, check=True))
    row(table, "empty call (command start)", 0, "pearson --version", "", c, w)
    big = pd.DataFrame(rng.normal(size=(1_000_000, 10)), columns=[f"c{j}" for j in range(10)])
    with _core.Handover() as h:
        path, c, w = timed(lambda: h.write("big", _core.table(big, "big")[0]))
        row(table, "hand-over of a DataFrame", 1_000_000, "10 columns → .npz", f"{os.path.getsize(path) / 1e6:.0f} MB", c, w)
    del big

    for n in sizes:
        d = 5
        P = rng.normal(size=(n, d))
        Q = rng.normal(size=(n, d))
        Q[:, 0] += 0.1
        r, c, w = timed(lambda: pearson.test(P, Q))
        row(table, "two-sample test", n, "pearson.test", f"p = {r.pvalue:.3g}", c, w)
        pv, c, w = timed(lambda: scipy_energy_test(P, Q))
        row(table, "two-sample test", n, f"scipy permutation_test, energy, {SCIPY_ROWS} rows, 99 perms", f"p = {pv:.3g}", c, w)

        X = rng.normal(size=(n, d))
        y = np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n)
        (s, p), c, w = timed(lambda: pearson.smi_scores(X, y))
        row(table, "feature scores (5 features)", n, "pearson.smi_scores", "top 2: " + str(list(np.argsort(-s)[:2])), c, w)
        if n <= SKLEARN_MAX:
            from sklearn.feature_selection import mutual_info_regression
            mi, c, w = timed(lambda: mutual_info_regression(X, y, random_state=1))
            row(table, "feature scores (5 features)", n, "sklearn mutual_info_regression", "top 2: " + str(list(np.argsort(-mi)[:2])), c, w)

        ref = pd.DataFrame(rng.normal(size=(n, 10)), columns=[f"c{j}" for j in range(10)])
        cur = pd.DataFrame(rng.normal(size=(n, 10)), columns=ref.columns)
        cur["c0"] += 0.1
        r, c, w = timed(lambda: pearson.drift(ref, cur))
        row(table, "drift (10 columns)", n, "pearson.drift", f"{int(r.table['drifted'].sum())} drifted", c, w)
        k, c, w = timed(lambda: ks_drift(ref, cur))
        row(table, "drift (10 columns)", n, "pandas + ks_2samp + BH", f"{k} drifted", c, w)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
