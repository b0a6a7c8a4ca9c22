"""Every function on numpy and pandas inputs, against the command's JSON on
the same data written as CSV, at the same seed: the same numbers, bit for bit
(the package runs the command; the hand-over must not change a value)."""

import os

import numpy as np
import pandas as pd
import pytest

import pearson
from conftest import FAST, strip

FLAGS = ["--k", "20", "--m", "200", "--draws", "2"]


def frame(rng, n, shift=0.0):
    return pd.DataFrame({
        "a": rng.normal(shift, 1, n),
        "b": rng.normal(0, 1, n).astype(np.float32).astype(float),
        "c": rng.choice(["red", "green", "blue"], n),
        "d": rng.random(n) < 0.3,
    })


def test_divergence_numpy(command, write_csv):
    rng = np.random.default_rng(1)
    P, Q = rng.normal(size=(400, 2)), rng.normal(0.5, 1, size=(300, 2))
    res = pearson.divergence(P, Q, alpha=0.5, seed=3, **FAST)
    cols = ["x0", "x1"]
    want = command("divergence", *FLAGS, "--seed", 3, write_csv(pd.DataFrame(P, columns=cols), "P"),
                   write_csv(pd.DataFrame(Q, columns=cols), "Q"))
    assert strip(dict(res)) == strip(want)
    assert res.statistic == res.pe == want["pe"] and res.n_p == 400 and res.columns == cols


def test_divergence_pandas_categories_and_missing(command, write_csv):
    rng = np.random.default_rng(2)
    P, Q = frame(rng, 400), frame(rng, 350, 0.7)
    P.loc[[5, 17], "a"] = np.nan
    Q.loc[3, "c"] = None
    P_before, Q_before = P.copy(), Q.copy()
    res = pearson.divergence(P, Q, drop_missing=True, **FAST)
    want = command("divergence", *FLAGS, "--drop-missing", write_csv(P, "P"), write_csv(Q, "Q"))
    assert strip(dict(res)) == strip(want)
    assert res.n_p == 398 and res.n_q == 349  # the rows with missing values dropped, counted
    assert any("dropped 2 rows" in n for n in res.notes)
    pd.testing.assert_frame_equal(P, P_before)  # inputs never mutated
    pd.testing.assert_frame_equal(Q, Q_before)


def test_test_numpy_and_pandas(command, write_csv):
    rng = np.random.default_rng(3)
    P, Q = frame(rng, 300), frame(rng, 300, 1.0)
    res = pearson.test(P, Q, permutations=49, seed=5, **FAST)
    want = command("test", *FLAGS, "--permutations", 49, "--seed", 5, write_csv(P, "P"), write_csv(Q, "Q"))
    assert strip(dict(res)) == strip(want)
    assert res.pvalue == want["p_value"] and res.statistic == want["statistic"]
    assert res.pvalue <= 0.05  # a shift of one sd in 300 rows is found
    arr = pearson.test(P[["a", "b"]].to_numpy(), Q[["a", "b"]].to_numpy(), permutations=49, **FAST)
    assert 0 < arr.pvalue <= 1 and arr.columns == ["x0", "x1"]


def test_mi_numpy_series_and_frame(command, write_csv):
    rng = np.random.default_rng(4)
    x = rng.normal(size=500)
    y = x ** 2 + 0.2 * rng.normal(size=500)
    res = pearson.mi(x, y, **FAST)
    want = command("mi", "--x", "x0", "--y", "y0", *FLAGS,
                   write_csv(pd.DataFrame({"x0": x, "y0": y}), "d"))
    assert strip(dict(res)) == strip(want)
    assert res.statistic == res.smi > 0.5
    df = pd.DataFrame({"u": x, "v": y, "label": np.where(x > 0, "pos", "neg")})
    by_name = pearson.mi(["u", "label"], "v", data=df, permutations=19, **FAST)
    want = command("mi", "--x", "u,label", "--y", "v", "--permutations", 19, *FLAGS, write_csv(df, "df"))
    assert strip(dict(by_name)) == strip(want)
    series = pearson.mi(df["u"], df["v"], **FAST)
    assert series.x == ["u"] and series.y == ["v"]


def test_rank_and_smi_scores(command, write_csv):
    rng = np.random.default_rng(5)
    n = 500
    df = pd.DataFrame({"noise": rng.normal(size=n), "signal": rng.normal(size=n),
                       "colour": rng.choice(["r", "g"], n)})
    df["y"] = np.sin(2 * df["signal"]) + 0.1 * rng.normal(size=n) + (df["colour"] == "r")
    ranked = pearson.rank(df, target="y", permutations=19, **FAST)
    want = command("rank", "--target", "y", "--permutations", 19, *FLAGS, write_csv(df, "df"))
    pd.testing.assert_frame_equal(ranked, pd.DataFrame(want["features"]))
    assert list(ranked["rank"]) == [1, 2, 3] and ranked["feature"].iloc[-1] == "noise"
    assert ranked.attrs["pearson"]["categorical_x"] == ["colour"]

    X = df[["noise", "signal"]].to_numpy()
    scores, pvalues = pearson.smi_scores(X, df["y"].to_numpy(), permutations=19, **FAST)
    want = command("rank", "--target", "target", "--permutations", 19, *FLAGS,
                   write_csv(pd.DataFrame({"x0": X[:, 0], "x1": X[:, 1], "target": df["y"]}), "X"))
    by = {f["feature"]: f for f in want["features"]}
    assert list(scores) == [by["x0"]["smi"], by["x1"]["smi"]]
    assert list(pvalues) == [by["x0"]["p_value"], by["x1"]["p_value"]]

    from sklearn.feature_selection import SelectKBest
    sel = SelectKBest(score_func=lambda A, b: pearson.smi_scores(A, b, permutations=19, **FAST), k=1)
    sel.fit(X, df["y"].to_numpy())
    assert list(sel.get_support()) == [False, True]


def test_drift_frame_saved_reference_and_html(command, write_csv, tmp_path):
    rng = np.random.default_rng(6)
    ref, cur = frame(rng, 600), frame(rng, 600)
    cur["a"] += 1.0
    opts = dict(permutations=199, k=20, m=200, draws=2)
    flags = ["--permutations", 199, *FLAGS]
    html = tmp_path / "report.html"
    res = pearson.drift(ref, cur, html=html, **opts)
    want = command("drift", *flags, write_csv(ref, "ref"), write_csv(cur, "cur"))
    assert strip(dict(res)) == strip(want)
    t = res.table
    assert t.loc["a", "drifted"] and not t.loc["b", "drifted"] and t.loc["c", "type"] == "categorical"
    assert isinstance(res.drift, bool) and res.verdict == want["verdict"]
    assert html.read_text().lstrip().lower().startswith("<!doctype html")

    # A reference saved by the package serves the command, and one saved by
    # the command serves the package: the same file, the same answers.
    saved_py = tmp_path / "py.ref"
    pearson.drift(ref, save_reference=saved_py, **opts)
    saved_cmd = tmp_path / "cmd.ref"
    command("drift", "--save-reference", saved_cmd, *flags, write_csv(ref, "ref"))
    a = pearson.drift(saved_cmd, cur, **opts)
    b = command("drift", "--reference", saved_py, *flags, write_csv(cur, "cur"))
    assert strip(dict(a)) == strip(b)


def test_changepoints_numpy_and_datetime_index(command, write_csv):
    rng = np.random.default_rng(7)
    s = np.r_[rng.normal(0, 1, 200), rng.normal(3, 1, 200)]
    res = pearson.changepoints(s, changes=1)
    want = command("changepoint", "--changes", 1, write_csv(pd.DataFrame({"x0": s}), "s"))
    assert strip(dict(res)) == strip(want)
    assert abs(int(res.indices[0]) - 200) <= 5
    idx = pd.date_range("2026-01-01", periods=400, freq="h")
    series = pd.Series(s, index=idx, name="load")
    ts = pearson.changepoints(series, changes=1)
    assert ts.times[0] == idx[ts.indices[0]] and isinstance(ts.times[0], pd.Timestamp)
    seg = ts.segments
    assert list(seg["start"]) == [0, int(ts.indices[0])] and seg["start_time"].iloc[1] == ts.times[0]


def test_changepoints_datetime_time_column_and_missing(command, write_csv):
    """A datetime column as time= (dates, zoned and fractional timestamps)
    gives Timestamps at the rows the same series finds with row times; NaN
    is missing: an error naming drop_missing=True, or the row dropped and
    counted."""
    rng = np.random.default_rng(7)
    s = np.r_[rng.normal(0, 1, 150), rng.normal(3, 1, 150)]
    s[10] = np.nan
    with pytest.raises(pearson.PearsonError, match="drop_missing=True"):
        pearson.changepoints(pd.DataFrame({"x": s}))
    rows = pearson.changepoints(pd.DataFrame({"x": s}), drop_missing=True)
    assert rows["rows_dropped"] == 1 and len(rows.indices) >= 1
    for when in (pd.date_range("2024-01-01", periods=300, freq="D"),
                 pd.date_range("2024-01-01 12:00", periods=300, freq="min", tz="Europe/Paris"),
                 pd.date_range("2024-01-01 12:00", periods=300, freq="500ms")):
        res = pearson.changepoints(pd.DataFrame({"when": when, "x": s}), time="when", drop_missing=True)
        assert res["rows_dropped"] == 1 and list(res.times) == list(when[rows.indices])
        assert isinstance(res.times[0], pd.Timestamp) and str(res.times[0].tz) == str(when.tz)


def test_dtypes_accepted_inputs_unchanged():
    rng = np.random.default_rng(8)
    base = rng.normal(size=(300, 4))
    P32 = base.astype(np.float32)
    Pint = (base * 10).astype(np.int64)
    Pstrided = base[:, ::2]  # not contiguous
    Pobj = base[:, :2].astype(object)
    Q = rng.normal(size=(300, 4))
    for P, q in ((P32, Q), (Pint, Q), (Pstrided, Q[:, ::2]), (Pobj, Q[:, :2])):
        before = P.copy()
        res = pearson.divergence(P, q, **FAST)
        assert np.isfinite(res.pe)
        assert np.array_equal(P, before) and P.dtype == before.dtype
    exact32 = pearson.divergence(P32, Q.astype(np.float32), **FAST)
    again = pearson.divergence(P32.astype(np.float64), Q.astype(np.float32).astype(np.float64), **FAST)
    # float32 values are handed over as their shortest decimal (as pandas
    # writes them to CSV), which parses back to the nearest float64.
    assert abs(exact32.pe - again.pe) < 1e-3


def test_paths_passed_through(tmp_path, write_csv):
    rng = np.random.default_rng(9)
    P = pd.DataFrame({"x": rng.normal(size=300)})
    Q = pd.DataFrame({"x": rng.normal(size=300)})
    p, q = write_csv(P, "p"), write_csv(Q, "q")
    a = pearson.divergence(p, q, **FAST)
    b = pearson.divergence(P, Q, **FAST)
    assert a.pe == b.pe and a.numerator == p


def test_progress_only_when_asked(capfd):
    rng = np.random.default_rng(10)
    P, Q = rng.normal(size=(200, 1)), rng.normal(size=(200, 1))
    pearson.divergence(P, Q, **FAST)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_example_runs():
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    ex = os.path.join(here, "..", "examples", "example.py")
    out = subprocess.run([sys.executable, ex], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "divergence" in out.stdout and "drift" in out.stdout


def test_pandas_extension_dtypes_as_the_command_reads_their_csv(command, write_csv):
    """category, nullable Int64 (NA), nullable boolean (NA) and object
    columns reach the command as the CSV pandas writes of them would."""
    rng = np.random.default_rng(13)

    def make(n, shift):
        df = pd.DataFrame({
            "num": pd.array(rng.integers(0, 50, n) + shift, dtype="Int64"),
            "cat": pd.Categorical(rng.choice(["lo", "mid", "hi"], n)),
            "flag": pd.array(rng.random(n) < 0.5, dtype="boolean"),
            "obj": pd.Series(rng.choice(["u", "v", None], n), dtype=object),
        })
        df.loc[[2, 9], "num"] = pd.NA
        df.loc[4, "flag"] = pd.NA
        return df

    ref, cur = make(400, 0), make(400, 30)
    res = pearson.drift(ref, cur, permutations=199, **FAST)
    want = command("drift", "--permutations", 199, *FLAGS, write_csv(ref, "ref"), write_csv(cur, "cur"))
    assert strip(dict(res)) == strip(want)
    t = res.table
    assert t.loc["num", "missing_ref"] == 2 / 400 and t.loc["flag", "missing_ref"] == 1 / 400  # shares
    assert t.loc["num", "drifted"] and t.loc["cat", "type"] == "categorical", t
