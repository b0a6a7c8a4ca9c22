#!/usr/bin/env python3
"""Writes the tables of the drift speed measurement (docs/RESULTS.md):
ref.csv and cur.csv, ROWS rows x COLS (default 100) normal columns, cur
with the first three columns shifted by 0.5. Rows are drawn with
replacement from one pool of 20 000 distinct rows (cur's with the shift),
which keeps the writing fast (the reader's cost does not depend on the
values): the other columns of both tables come from one distribution, the
pool's, so that they do not drift (pools drawn apart for each table differ
by a KS D of about 0.009, which KS and drift see from 10^4 rows on).
Usage: drift_bench_data.py ROWS DIR [COLS].
Not committed data: 10^6 rows make about 0.7 GB per file."""
import os
import random
import sys

rows, out = int(sys.argv[1]), sys.argv[2]
cols = int(sys.argv[3]) if len(sys.argv) > 3 else 100
os.makedirs(out, exist_ok=True)
rnd = random.Random("pool")
values = [[rnd.gauss(0, 1) for i in range(cols)] for _ in range(20000)]
for name, shift in (("ref.csv", 0.0), ("cur.csv", 0.5)):
    rnd = random.Random(name)
    pool = [",".join("%.4f" % (v + (shift if i < 3 else 0)) for i, v in enumerate(row)) + "\n" for row in values]
    with open(os.path.join(out, name), "w") as f:
        f.write(",".join(f"x{i}" for i in range(cols)) + "\n")
        for start in range(0, rows, 10000):
            f.write("".join(rnd.choice(pool) for _ in range(min(10000, rows - start))))
