"""Every error path raises PearsonError (a ValueError) with the command's
message, naming the column and the row where the command does; the
interpreter stays usable; no Go trace reaches the user."""

import os
import stat

import numpy as np
import pandas as pd
import pytest

import pearson
from conftest import FAST

rng = np.random.default_rng(11)
P = rng.normal(size=(200, 2))
Q = rng.normal(size=(200, 2))


def alive():
    assert np.isfinite(pearson.divergence(P, Q, **FAST).pe)


def raises(fn, *args, match, **kw):
    with pytest.raises(pearson.PearsonError, match=match) as e:
        fn(*args, **kw)
    assert isinstance(e.value, ValueError)
    assert "goroutine" not in str(e.value) and "panic" not in str(e.value)
    return e.value


def test_nan_is_missing_with_column_and_row():
    bad = P.copy()
    bad[37, 1] = np.nan
    e = raises(pearson.divergence, bad, Q, match=r"P: row 37, column \"x1\".*drop_missing=True", **FAST)
    assert e.column == "x1" and e.row == 37 and e.exit_code == 1
    df = pd.DataFrame(P.copy(), columns=["u", "v"], index=range(100, 300))
    df.iloc[5, 0] = None
    e = raises(pearson.test, df, pd.DataFrame(Q, columns=["u", "v"]), match="row 5", permutations=9, **FAST)
    assert e.column == "u" and e.row == 5  # a position (iloc), not the index label
    alive()


@pytest.mark.parametrize("data, match", [
    (np.zeros((3, 2, 2)), "2-D array"),
    ([[1.0, 2.0], [3.0]], "not a rectangular array"),
    (np.zeros((0, 2)), "no data row|not followed by any data row"),
    (np.array([[1 + 2j], [3j]]), "complex"),
    (pd.DataFrame({"t": pd.date_range("2026", periods=3)}), "dates"),
    (np.array([[np.inf, 1.0]] * 50), "Inf|infinite|non-finite|not finite"),
])
def test_bad_data(data, match):
    raises(pearson.divergence, data, Q, match=match, **FAST)
    alive()


def test_mismatched_columns_and_unknown_names():
    raises(pearson.divergence, P, Q[:, :1], match="x1", **FAST)
    df = pd.DataFrame(P, columns=["a", "b"])
    raises(pearson.rank, df, target="nope", match="nope", **FAST)
    raises(pearson.mi, P[:10], Q[:20], match="different numbers of rows", **FAST)
    alive()


@pytest.mark.parametrize("kw, match", [
    (dict(alpha=2.0), "alpha"),
    (dict(k=-3), "k"),
    (dict(max_memory="1K"), "memory|budget|needs"),
])
def test_bad_settings(kw, match):
    opts = dict(FAST)
    opts.update(kw)
    e = raises(pearson.divergence, P, Q, match=match, **opts)
    assert e.exit_code in (1, 2)
    alive()


def test_drift_usage_errors():
    raises(pearson.drift, P, match="needs a current table")
    raises(pearson.drift, P, Q, save_reference="x.ref", match="give no current")


def test_no_go_trace_reaches_the_user(tmp_path, monkeypatch):
    fake = tmp_path / "pearson"
    fake.write_text("#!/bin/sh\necho 'panic: boom' >&2\necho 'goroutine 1 [running]:' >&2\nexit 2\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PEARSON_BIN", str(fake))
    e = raises(pearson.divergence, P, Q, match="internal error in the pearson command")
    assert "boom" not in str(e)
    monkeypatch.delenv("PEARSON_BIN")
    alive()


def test_missing_binary(monkeypatch):
    monkeypatch.setenv("PEARSON_BIN", "/nonexistent/pearson")
    raises(pearson.divergence, P, Q, match="cannot run the pearson command")


def test_no_files_left_behind():
    import glob
    import tempfile

    def ours():
        return set(glob.glob("/dev/shm/pearson-*")) | set(glob.glob(os.path.join(tempfile.gettempdir(), "pearson-*")))

    before = ours()
    alive()
    bad = P.copy()
    bad[3, 0] = np.nan
    raises(pearson.divergence, bad, Q, match="row 3", **FAST)
    assert ours() == before
