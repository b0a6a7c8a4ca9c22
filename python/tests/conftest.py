"""Shared helpers: the command run directly, for the agreement tests."""

import json
import os
import subprocess

import pytest

import pearson

# Small budgets: every sample below is read in full ((draws+2)·(k+m) = 880
# rows kept), so that the command on a CSV file and the package on the same
# data in memory see the same rows, and each call takes a fraction of a second.
FAST = dict(k=20, m=200, draws=2)

# Keys that name the inputs or time the run: they differ between a run on a
# CSV file and a run on data handed over, and are left out of comparisons.
VOLATILE = {"timing", "numerator", "denominator", "input", "reference", "current", "saved"}


def strip(d):
    if isinstance(d, dict):
        return {k: strip(v) for k, v in d.items() if k not in VOLATILE}
    if isinstance(d, list):
        return [strip(v) for v in d]
    return d


@pytest.fixture
def command():
    """Runs `pearson ARGS --format json` and returns its parsed output."""

    def run(*args):
        out = subprocess.run([pearson.binary(), *map(str, args), "--format", "json", "--progress", "never"],
                             capture_output=True, check=False)
        assert out.returncode == 0, out.stderr.decode()
        return json.loads(out.stdout)

    return run


@pytest.fixture
def write_csv(tmp_path):
    """Writes a DataFrame as the CSV file the command reads (floats exactly)."""

    def write(df, name):
        path = os.path.join(tmp_path, name + ".csv")
        df.to_csv(path, index=False)
        return path

    return write
