#!/usr/bin/python3
"""The reference of drift's speed measurement (docs/RESULTS.md, "drift"): what a
user would run instead of `pearson drift REF CUR`. Reads REF and CUR with
pandas, runs scipy's two-sample Kolmogorov-Smirnov test (ks_2samp, method
'auto') on every numeric column the two tables share, adjusts the p-values by
Benjamini-Hochberg and prints the columns with q < LEVEL (default 0.05) and
the CPU seconds of reading and testing. Usage: ks_reference.py REF CUR [LEVEL]."""
import sys
import time

import numpy as np
import pandas as pd
from scipy import stats

start = time.process_time()
ref_path, cur_path = sys.argv[1], sys.argv[2]
level = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
ref, cur = pd.read_csv(ref_path), pd.read_csv(cur_path)
read = time.process_time() - start
cols = [c for c in ref.columns if c in cur.columns and pd.api.types.is_numeric_dtype(ref[c]) and pd.api.types.is_numeric_dtype(cur[c])]
p = np.array([stats.ks_2samp(ref[c].dropna(), cur[c].dropna()).pvalue for c in cols])
# Benjamini-Hochberg: q_(i) = min_{j >= i} p_(j) m / j.
order = np.argsort(p)
q = np.empty_like(p)
q[order] = np.minimum.accumulate((p[order] * len(p) / np.arange(1, len(p) + 1))[::-1])[::-1]
q = np.minimum(q, 1)
flagged = [c for c, v in zip(cols, q) if v < level]
total = time.process_time() - start
print(f"{len(flagged)} of {len(cols)} columns flagged (KS + BH, q < {level}): {','.join(flagged)}")
print(f"cpu_read {read:.3f} s, cpu_total {total:.3f} s")
