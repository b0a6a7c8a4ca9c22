"""One call of each function of the pearson package, on small data (run by the tests)."""

import numpy as np
import pandas as pd

import pearson

rng = np.random.default_rng(0)
fast = dict(k=20, m=200, draws=2)  # small budgets: this example runs in a few seconds

# Two samples: does Q differ from P?
P = rng.normal(size=(500, 2))
Q = rng.normal(0.5, 1, size=(500, 2))
d = pearson.divergence(P, Q, alpha=0.5, **fast)
print(f"divergence PE = {d.pe:.4f} ± {d.stderr:.4f}")
t = pearson.test(P, Q, permutations=99, **fast)
print(f"test statistic = {t.statistic:.3f}, p = {t.pvalue:.3f}")

# Dependence: SMI, a ranking, and a scikit-learn score function.
df = pd.DataFrame({"x": rng.normal(size=500), "noise": rng.normal(size=500),
                   "colour": rng.choice(["red", "blue"], 500)})
df["y"] = df["x"] ** 2 + (df["colour"] == "red") + 0.1 * rng.normal(size=500)
print(f"mi SMI(x; y) = {pearson.mi(df['x'], df['y'], **fast).smi:.3f}")
print(pearson.rank(df, target="y", **fast)[["rank", "feature", "smi"]].to_string(index=False))
scores, pvalues = pearson.smi_scores(df[["x", "noise"]], df["y"], permutations=19, **fast)
print("smi_scores", np.round(scores, 3), pvalues)

# Drift: a per-column table and a verdict.
current = df.assign(x=df["x"] + 1)
r = pearson.drift(df, current, permutations=199, **fast)
print(r.table[["divergence", "q_value", "drifted"]])
print("drift:", r.drift, "-", r.verdict)

# Change points of a series with a DatetimeIndex: times are timestamps.
s = pd.Series(np.r_[rng.normal(0, 1, 150), rng.normal(3, 1, 150)],
              index=pd.date_range("2026-01-01", periods=300, freq="h"))
cp = pearson.changepoints(s, changes=1)
print("change point at", cp.times[0])
