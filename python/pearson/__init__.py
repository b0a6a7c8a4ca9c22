"""pearson for Python: the pearson command's estimates on numpy arrays and pandas DataFrames.

Each function runs the Go command (built into the package by
``pip install ./python``), so it applies exactly the command's rules —
column selection, text columns as categories, empty cells and NaN as missing
values, scaling, memory budgets and refusals — and gives the same numbers as
``pearson … --format json`` at the same seed. Arrays and DataFrames are
handed over as an uncompressed NumPy archive that the command reads in place
(it reads only the rows it samples); paths and ``s3://`` or ``http(s)://``
URLs go to the command as they are.

Functions: :func:`divergence`, :func:`test`, :func:`mi`, :func:`rank`,
:func:`smi_scores` (a scikit-learn score function), :func:`drift`,
:func:`changepoints`. Bad data or settings raise :class:`PearsonError`, a
``ValueError``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._core import Handover, PathLike, PearsonError, binary, flags, run

__all__ = [
    "PearsonError", "Result", "DivergenceResult", "TestResult", "MIResult", "DriftResult",
    "ChangepointResult", "divergence", "test", "mi", "rank", "smi_scores", "drift",
    "changepoints", "binary",
]
__version__ = "0.1.0.dev0"

Data = Any  # a 2-D (or 1-D) numpy array, a pandas DataFrame or Series, a mapping of columns, or a path/URL
Columns = Optional[Union[str, Sequence[str]]]


class Result(Mapping[str, Any]):
    """The command's JSON output: every key is an attribute (``res.pe``) and an
    item (``res["pe"]``); ``notes`` holds what the command said on standard
    error (sampled reads, dropped rows, columns left out)."""

    def __init__(self, data: Mapping[str, Any], notes: Sequence[str] = ()) -> None:
        self._data = dict(data)
        self.notes = list(notes)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_data"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self._data.items()
                          if not isinstance(v, (list, dict)))
        return f"{type(self).__name__}({shown})"


class DivergenceResult(Result):
    """``pearson divergence``'s JSON; ``statistic`` is the estimate ``pe``."""

    @property
    def statistic(self) -> float:
        return self._data["pe"]

    @property
    def pvalue(self) -> Optional[float]:
        return self._data.get("p_value")


class TestResult(DivergenceResult):
    """``pearson test``'s JSON; ``statistic`` is the test statistic, ``pvalue``
    the permutation p-value (scipy.stats' names)."""

    @property
    def statistic(self) -> float:
        return self._data["statistic"]


class MIResult(Result):
    """``pearson mi``'s JSON; ``statistic`` is the SMI estimate, ``pvalue`` the
    permutation p-value (None without permutations)."""

    @property
    def statistic(self) -> float:
        return self._data["smi"]

    @property
    def pvalue(self) -> Optional[float]:
        return self._data.get("p_value")


class DriftResult(Result):
    """``pearson drift``'s JSON; ``table`` is the per-column table (a
    DataFrame indexed by column when pandas is installed, else a list of
    dicts), ``drift`` the data set's verdict, ``verdict`` its sentence."""

    @property
    def table(self) -> Any:
        rows = self._data.get("columns", [])
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover
            return rows
        return pd.DataFrame(rows).set_index("column") if rows else pd.DataFrame()


class ChangepointResult(Result):
    """``pearson changepoint``'s JSON. ``indices`` are the rows (from 0) where
    a new segment starts, ``times`` the same as labels of the input's index
    (a DatetimeIndex gives timestamps), ``segments`` and ``scores`` tables."""

    def __init__(self, data: Mapping[str, Any], notes: Sequence[str], index: Any,
                 parse_times: Any = None) -> None:
        super().__init__(data, notes)
        self._index = index
        self._parse_times = parse_times  # ISO 8601 strings back to the time column's dtype

    @property
    def indices(self) -> np.ndarray:
        return np.array([c["time"] for c in self._data.get("change_points", [])], dtype=np.int64)

    @property
    def times(self) -> Any:
        if self._index is None or self._data.get("time") != "row":
            if self._data.get("time") == "row":
                return self.indices
            times = np.array([c["time"] for c in self._data.get("change_points", [])])
            return self._parse_times(times) if self._parse_times is not None else times
        return self._index[self.indices]

    def _frame(self, key: str) -> Any:
        rows = self._data.get(key, [])
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover
            return rows
        return pd.DataFrame(rows)

    @property
    def segments(self) -> Any:
        seg = self._frame("segments")
        if self._index is not None and len(seg) and self._data.get("time") == "row":
            seg["start_time"] = self._index[seg["start"].to_numpy()]
            seg["end_time"] = self._index[seg["end"].to_numpy()]
        return seg

    @property
    def scores(self) -> Any:
        return self._frame("scores")


def _opts(**kw: Any) -> List[str]:
    return flags(kw)


def _two(command: str, P: Data, Q: Data, opts: List[str], progress: bool, cls: type) -> Any:
    with Handover() as h:
        p, _, _ = h.arg(P, "P", "P")
        q, _, _ = h.arg(Q, "Q", "Q")
        out, notes = run(command, [*opts, p, q], h.names, progress)
    return cls(out, notes)


def divergence(P: Data, Q: Data, alpha: float = 0.5, *, columns: Columns = None, exclude: Columns = None,
               k: Optional[int] = None, m: Optional[int] = None, draws: Optional[int] = None,
               folds: Optional[int] = None, lambda_: Optional[float] = None, sigma: Optional[float] = None,
               exact: bool = False, seed: int = 1, drop_missing: bool = False, standardize: bool = False,
               reservoir: Optional[int] = None, scan: bool = False, max_memory: Optional[str] = None,
               endpoint: Optional[str] = None, progress: bool = False) -> DivergenceResult:
    """The α-relative Pearson divergence PE_α(P‖Q), as ``pearson divergence``.

    P, Q: n×d arrays (a 1-D array is one column), DataFrames (the same
    column names), or paths/URLs of CSV or Parquet files, read by the
    command's own sampling readers. Text, categorical and boolean columns are
    categories; NaN and None are missing values (an error, or the row dropped
    with ``drop_missing=True``). The other keywords are the command's flags
    (``lambda_`` is ``--lambda``; None leaves the command's default).

    Returns the command's JSON keys as attributes (``pe``, ``stderr``,
    ``sigma``, ``n_p``, …), ``statistic`` being ``pe``.
    """
    o = _opts(alpha=alpha, columns=columns, exclude=exclude, k=k, m=m, draws=draws, folds=folds,
              lambda_=lambda_, sigma=sigma, exact=exact, seed=seed, drop_missing=drop_missing,
              standardize=standardize, reservoir=reservoir, scan=scan, max_memory=max_memory,
              endpoint=endpoint)
    return _two("divergence", P, Q, o, progress, DivergenceResult)


def test(P: Data, Q: Data, permutations: Optional[int] = None, *, alpha: float = 0.5,
         columns: Columns = None, exclude: Columns = None, k: Optional[int] = None,
         m: Optional[int] = None, draws: Optional[int] = None, folds: Optional[int] = None,
         lambda_: Optional[float] = None, sigma: Optional[float] = None, exact: bool = False,
         seed: int = 1, drop_missing: bool = False, standardize: bool = False,
         reservoir: Optional[int] = None, scan: bool = False, max_memory: Optional[str] = None,
         endpoint: Optional[str] = None, progress: bool = False) -> TestResult:
    """Two-sample permutation test: do P and Q differ? As ``pearson test``.

    Inputs and keywords as :func:`divergence`; ``permutations`` None is the
    command's default (1000). Returns the command's JSON keys as attributes,
    with scipy.stats' ``statistic`` and ``pvalue`` (the key ``p_value``).
    """
    o = _opts(permutations=permutations, alpha=alpha, columns=columns, exclude=exclude, k=k, m=m,
              draws=draws, folds=folds, lambda_=lambda_, sigma=sigma, exact=exact, seed=seed,
              drop_missing=drop_missing, standardize=standardize, reservoir=reservoir, scan=scan,
              max_memory=max_memory, endpoint=endpoint)
    return _two("test", P, Q, o, progress, TestResult)


test.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def _names(c: Columns) -> List[str]:
    if c is None:
        return []
    return [c] if isinstance(c, str) else [str(x) for x in c]


def _joined(x: Data, y: Data) -> Tuple[Dict[str, np.ndarray], List[str], List[str]]:
    """The columns of x and y in one table, y's renamed if a name repeats."""
    from ._core import table
    xc, _ = table(x, "x", "x")
    yc, _ = table(y, "y", "y")
    cols = dict(xc)
    ynames = []
    for name, v in yc.items():
        new = name
        while new in cols:
            new += "_y"
        cols[new] = v
        ynames.append(new)
    lengths = {len(v) for v in cols.values()}
    if len(lengths) > 1:
        raise PearsonError(f"x and y have different numbers of rows: {sorted(lengths)}")
    return cols, list(xc), ynames


def mi(x: Any, y: Any, *, data: Data = None, y_type: Optional[str] = None, model: Optional[str] = None,
       permutations: Optional[int] = None, k: Optional[int] = None, m: Optional[int] = None,
       draws: Optional[int] = None, folds: Optional[int] = None, lambda_: Optional[float] = None,
       sigma_x: Optional[float] = None, sigma_y: Optional[float] = None, exact: bool = False,
       seed: int = 1, drop_missing: bool = False, standardize: bool = False,
       reservoir: Optional[int] = None, scan: bool = False, max_memory: Optional[str] = None,
       endpoint: Optional[str] = None, progress: bool = False) -> MIResult:
    """Squared-loss mutual information SMI(X, Y), as ``pearson mi``.

    Either x and y hold the data (arrays with the same number of rows,
    Series, DataFrames), or ``data`` is a DataFrame or a path/URL and x, y
    name its columns (a name or a list). Returns the command's JSON keys as
    attributes (``smi``, ``stderr``, ``model``, …), ``statistic`` being
    ``smi`` and ``pvalue`` the permutation p-value when ``permutations`` is
    set.
    """
    o = _opts(y_type=y_type, model=model, permutations=permutations, k=k, m=m, draws=draws,
              folds=folds, lambda_=lambda_, sigma_x=sigma_x, sigma_y=sigma_y, exact=exact, seed=seed,
              drop_missing=drop_missing, standardize=standardize, reservoir=reservoir, scan=scan,
              max_memory=max_memory, endpoint=endpoint)
    with Handover() as h:
        if data is None:
            cols, xn, yn = _joined(x, y)
            path = h.write("data", cols)
        else:
            path, _, _ = h.arg(data, "data", "data")
            xn, yn = _names(x), _names(y)
        out, notes = run("mi", ["--x", ",".join(xn), "--y", ",".join(yn), *o, path], h.names, progress)
    return MIResult(out, notes)


def _rank(data: Data, target: str, o: List[str], progress: bool) -> Tuple[Any, List[str]]:
    with Handover() as h:
        path, _, _ = h.arg(data, "data", "data")
        return run("rank", ["--target", target, *o, path], h.names, progress)


def rank(data: Data, target: str, *, features: Columns = None, exclude: Columns = None,
         top: Optional[int] = None, target_type: Optional[str] = None, model: Optional[str] = None,
         permutations: Optional[int] = None, k: Optional[int] = None, m: Optional[int] = None,
         draws: Optional[int] = None, folds: Optional[int] = None, lambda_: Optional[float] = None,
         sigma_x: Optional[float] = None, sigma_y: Optional[float] = None, exact: bool = False,
         seed: int = 1, drop_missing: bool = False, standardize: bool = False,
         reservoir: Optional[int] = None, scan: bool = False, max_memory: Optional[str] = None,
         endpoint: Optional[str] = None, progress: bool = False) -> Any:
    """Ranks the feature columns of data by their SMI with the target column,
    as ``pearson rank``: a DataFrame sorted like the command's table (one row
    per feature: rank, feature, smi, stderr, model, p_value, q_value, …; the
    rest of the JSON in ``df.attrs["pearson"]``). data: a DataFrame or a
    path/URL (text, categorical and boolean columns are categories).
    Requires pandas.
    """
    import pandas as pd
    o = _opts(features=features, exclude=exclude, top=top, target_type=target_type, model=model,
              permutations=permutations, k=k, m=m, draws=draws, folds=folds, lambda_=lambda_,
              sigma_x=sigma_x, sigma_y=sigma_y, exact=exact, seed=seed, drop_missing=drop_missing,
              standardize=standardize, reservoir=reservoir, scan=scan, max_memory=max_memory,
              endpoint=endpoint)
    out, notes = _rank(data, target, o, progress)
    df = pd.DataFrame(out.get("features", []))
    meta = {k: v for k, v in out.items() if k != "features"}
    meta["notes"] = notes
    df.attrs["pearson"] = meta
    return df


def smi_scores(X: Any, y: Any, *, permutations: int = 99, k: Optional[int] = None,
               m: Optional[int] = None, draws: Optional[int] = None, seed: int = 1,
               target_type: Optional[str] = None, **options: Any) -> Tuple[np.ndarray, np.ndarray]:
    """A scikit-learn score function: ``SelectKBest(score_func=pearson.smi_scores)``.

    Scores each column of X (n×d array or DataFrame) by its SMI with y, as
    ``pearson rank`` does, and returns ``(scores, pvalues)``, one per column of
    X in X's order; the p-values come from ``permutations`` permutations
    (0: none, NaN p-values). Other keywords go to :func:`rank`.
    """
    from ._core import table
    cols, _ = table(X, "X", "x")
    yc, _ = table(y, "y", "y")
    if len(yc) != 1:
        raise PearsonError(f"y: expected one column, got {len(yc)}")
    target = "target"
    while target in cols:
        target += "_"
    ycol = next(iter(yc.values()))
    if cols and len(ycol) != len(next(iter(cols.values()))):
        raise PearsonError(f"X and y have different numbers of rows: {len(next(iter(cols.values())))} and {len(ycol)}")
    allc = dict(cols)
    allc[target] = ycol
    progress = bool(options.pop("progress", False))
    o = _opts(permutations=permutations or None, k=k, m=m, draws=draws, seed=seed,
              target_type=target_type, **options)
    with Handover() as h:
        path = h.write("X", allc)
        out, _ = run("rank", ["--target", target, *o, path], h.names, progress)
    by = {f["feature"]: f for f in out["features"]}
    scores = np.array([by[c]["smi"] for c in cols], dtype=float)
    pv = np.array([by[c].get("p_value") if by[c].get("p_value") is not None else np.nan for c in cols], dtype=float)
    return scores, pv


def _is_saved_reference(x: Any) -> bool:
    from ._core import _is_path
    if not _is_path(x):
        return False
    try:
        with open(x, "rb") as f:
            return f.read(14) == b"pearson-drift\n"
    except OSError:
        return False


def drift(reference: Data, current: Data = None, *, save_reference: Optional[PathLike] = None,
          html: Optional[PathLike] = None, columns: Columns = None, exclude: Columns = None,
          categorical: Columns = None, level: Optional[float] = None, threshold: Optional[float] = None,
          drift_share: Optional[float] = None, adjust: Optional[str] = None,
          permutations: Optional[int] = None, column_k: Optional[int] = None, no_joint: bool = False,
          k: Optional[int] = None, m: Optional[int] = None, draws: Optional[int] = None,
          folds: Optional[int] = None, lambda_: Optional[float] = None, seed: int = 1,
          reservoir: Optional[int] = None, progress: bool = False) -> DriftResult:
    """Did any column change? Compares every column of ``current`` with
    ``reference``, as ``pearson drift``, with a verdict.

    reference: a DataFrame/array/path, or a reference file saved earlier
    (by ``save_reference=`` or by ``pearson drift --save-reference``: the
    files are the same). With ``save_reference=FILE`` and no current, stores
    a sample of reference to FILE and returns the command's JSON. ``html``
    writes the command's HTML report. Returns ``table`` (per column:
    divergence, stderr, p_value, q_value, shift_sd, drifted, status, …),
    ``drift`` (bool), ``verdict`` and the rest of the JSON as attributes.
    """
    import os
    o = _opts(columns=columns, exclude=exclude, categorical=categorical, level=level,
              threshold=threshold, drift_share=drift_share, adjust=adjust, permutations=permutations,
              column_k=column_k, no_joint=no_joint, k=k, m=m, draws=draws, folds=folds,
              lambda_=lambda_, seed=seed, reservoir=reservoir)
    if html is not None:
        o += ["--html", os.fspath(html)]
    with Handover() as h:
        if save_reference is not None:
            if current is not None:
                raise PearsonError("save_reference= stores the reference: give no current table")
            ref, _, _ = h.arg(reference, "reference", "reference")
            out, notes = run("drift", ["--save-reference", os.fspath(save_reference), *o, ref], h.names, progress)
            return DriftResult(out, notes)
        if current is None:
            raise PearsonError("drift needs a current table (or save_reference= to store the reference)")
        cur, _, _ = h.arg(current, "current", "current")
        if _is_saved_reference(reference):
            args = ["--reference", os.fspath(reference), *o, cur]
        else:
            ref, _, _ = h.arg(reference, "reference", "reference")
            args = [*o, ref, cur]
        out, notes = run("drift", args, h.names, progress)
    return DriftResult(out, notes)


def changepoints(series: Data, changes: Optional[int] = None, *, penalty: Optional[float] = None,
                 columns: Columns = None, exclude: Columns = None, time: Optional[str] = None,
                 embed: Optional[int] = None, window: Optional[int] = None, alpha: Optional[float] = None,
                 k: Optional[int] = None, m: Optional[int] = None, draws: Optional[int] = None,
                 exact: bool = False, sigma: Optional[float] = None, lambda_: Optional[float] = None,
                 retune: Optional[int] = None, min_distance: Optional[int] = None,
                 drop_missing: bool = False, seed: int = 1, max_memory: Optional[str] = None,
                 progress: bool = False) -> ChangepointResult:
    """Change points of a series, as ``pearson changepoint`` (segmentation).

    series: a 1-D or n×d array, a Series or DataFrame (its index, a
    DatetimeIndex say, gives ``times``), or a path/URL. ``changes=K``
    reports exactly K change points (the highest scores); otherwise those
    above ``penalty``. Returns ``indices`` (rows from 0 where segments start),
    ``times``, ``segments`` and ``scores`` tables and the JSON's keys
    (``change_points``, ``penalty``, …) as attributes. ``time`` may name a
    column of numbers or of datetimes (handed over as ISO 8601 text; ``times``
    are then Timestamps, the tables' times ISO 8601 strings).
    """
    series, parse_times = _iso_time_column(series, time)
    o = _opts(changes=changes, penalty=penalty, columns=columns, exclude=exclude, time=time,
              embed=embed, window=window, alpha=alpha, k=k, m=m, draws=draws, exact=exact,
              sigma=sigma, lambda_=lambda_, retune=retune, min_distance=min_distance,
              drop_missing=drop_missing, seed=seed, max_memory=max_memory)
    with Handover() as h:
        path, index, _ = h.arg(series, "series", "series")
        out, notes = run("changepoint", [*o, path], h.names, progress)
    return ChangepointResult(out, notes, index, parse_times)


def _iso_time_column(series: Any, time: Optional[str]) -> Tuple[Any, Any]:
    """A DataFrame whose ``time`` column holds datetimes, with that column as
    ISO 8601 text (dates when every time is a midnight without a zone), and
    the function that reads the command's times back; others unchanged."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover
        return series, None
    if time is None or not isinstance(series, pd.DataFrame) or time not in series.columns \
            or not pd.api.types.is_datetime64_any_dtype(series[time].dtype):
        return series, None
    col = series[time]
    tz = getattr(col.dt, "tz", None)
    if tz is None and (col.dropna() == col.dropna().dt.normalize()).all():
        fmt = "%Y-%m-%d"
    else:
        fmt = "%Y-%m-%dT%H:%M:%S" + (".%f" if (col.dropna().dt.microsecond != 0).any() else "") + ("%z" if tz is not None else "")
    text = col.dt.strftime(fmt).astype(object).where(col.notna(), None)

    def parse(times: np.ndarray) -> Any:
        ts = pd.to_datetime(list(times), utc=tz is not None)
        return ts.tz_convert(tz) if tz is not None else ts

    return series.assign(**{time: text}), parse
