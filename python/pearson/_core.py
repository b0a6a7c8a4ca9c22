"""Running the pearson command: finding it, handing data over, reading its JSON.

Every public function of the package builds the command line of one
``pearson`` command, hands in-memory arrays and DataFrames over as an
uncompressed NumPy archive (``.npz``, one array per column, which the Go
reader reads in place and samples by seeking), runs the command with
``--format json`` and turns its output into Python objects. The command's
exit codes are its contract: 0 success, 1 a data or runtime error, 2 a usage
error (both raised as :class:`PearsonError`), 130 interrupted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["PearsonError", "binary"]


class PearsonError(ValueError):
    """An error reported by the pearson command: bad data or bad settings.

    ``str(err)`` is the command's message, naming the input, the column and
    the row where the command does (rows of an array or DataFrame handed
    over counted from 0, as ``iloc`` counts them). ``column`` and ``row`` give
    them when the message names them (``None`` otherwise), ``exit_code`` the
    command's exit code (1 a data or runtime error, 2 bad settings).
    """

    def __init__(self, message: str, *, column: Optional[str] = None, row: Optional[int] = None,
                 exit_code: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column
        self.row = row
        self.exit_code = exit_code


def binary() -> str:
    """The path of the pearson command the package runs.

    The environment variable ``PEARSON_BIN`` overrides it; otherwise the
    command built into the package at install time (``pearson/bin``).
    """
    env = os.environ.get("PEARSON_BIN")
    if env:
        return env
    exe = "pearson.exe" if sys.platform == "win32" else "pearson"
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", exe)
    if os.path.exists(here):
        return here
    found = shutil.which("pearson")
    if found:
        return found
    raise PearsonError(
        "the pearson command is not installed with this package: reinstall it with "
        "`pip install ./python` from a checkout (which runs `go build`), or set PEARSON_BIN")


# --- handing data over -------------------------------------------------------

def _is_path(x: Any) -> bool:
    return isinstance(x, (str, os.PathLike))


def _pandas():
    try:
        import pandas  # noqa: F401
        return pandas
    except ImportError:  # pragma: no cover - pandas is optional
        return None


def _text_column(values: Iterable[Any]) -> np.ndarray:
    """Cells as fixed-width unicode: None, NaN and pandas' NA become "" (missing)."""
    out = []
    pd = _pandas()
    na = (pd.NA, pd.NaT) if pd is not None else ()
    for v in values:
        if v is None or (isinstance(v, float) and v != v) or any(v is x for x in na):
            out.append("")
            continue
        s = v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
        if "\x00" in s:
            raise PearsonError(f"a text cell holds a NUL character: {s[:40]!r}")
        out.append(s)
    arr = np.array(out, dtype=str)
    if arr.dtype.itemsize == 0:  # every cell empty: width 0 is not valid
        arr = arr.astype("<U1")
    return arr


def _column(values: Any, name: str, what: str) -> np.ndarray:
    """One column as an array the Go reader reads, without mutating values."""
    pd = _pandas()
    if pd is not None and isinstance(values, pd.Series):
        dt = values.dtype
        if isinstance(dt, pd.CategoricalDtype):
            return _text_column(values.astype(object))
        if pd.api.types.is_bool_dtype(dt):
            if values.isna().any():
                return _text_column(values.astype(object))
            return values.to_numpy(dtype=bool)
        if pd.api.types.is_datetime64_any_dtype(dt) or pd.api.types.is_timedelta64_dtype(dt):
            raise PearsonError(f"{what}: column {name!r} holds dates or durations ({dt}): "
                               "convert it to numbers (e.g. .astype('int64')) or leave it out")
        if pd.api.types.is_complex_dtype(dt):
            raise PearsonError(f"{what}: column {name!r} is complex ({dt}): not supported")
        if pd.api.types.is_numeric_dtype(dt):
            if pd.api.types.is_extension_array_dtype(dt):  # nullable Int64, Float64: NA → NaN
                return values.to_numpy(dtype=np.float64, na_value=np.nan)
            return values.to_numpy()
        return _text_column(values.to_numpy(dtype=object))
    arr = np.asarray(values)
    k = arr.dtype.kind
    if k in "fiub":
        return arr
    if k == "U":  # "" is a missing value, as in the command
        return arr
    if k in "OS":
        return _text_column(arr.tolist())
    if k == "c":
        raise PearsonError(f"{what}: column {name!r} is complex ({arr.dtype}): not supported")
    raise PearsonError(f"{what}: column {name!r} has dtype {arr.dtype}, which is neither numbers nor text: "
                       "convert it to numbers or strings")


def table(data: Any, what: str, prefix: str = "x") -> Tuple[Dict[str, np.ndarray], Any]:
    """The columns of data (2-D array, 1-D array, DataFrame, Series, mapping),
    named, and its index (pandas) or None."""
    pd = _pandas()
    if pd is not None and isinstance(data, pd.DataFrame):
        names = [str(c) for c in data.columns]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise PearsonError(f"{what}: the DataFrame has several columns named {dup[0]!r}")
        cols = {n: _column(data.iloc[:, j], n, what) for j, n in enumerate(names)}
        return cols, data.index
    if pd is not None and isinstance(data, pd.Series):
        n = str(data.name) if data.name is not None else prefix + "0"
        return {n: _column(data, n, what)}, data.index
    if isinstance(data, Mapping):
        cols = {str(k): _column(v, str(k), what) for k, v in data.items()}
        lengths = {len(v) for v in cols.values()}
        if len(lengths) > 1:
            raise PearsonError(f"{what}: the columns have different lengths {sorted(lengths)}")
        return cols, None
    try:
        arr = np.asarray(data)
    except ValueError as e:  # ragged nested lists
        raise PearsonError(f"{what}: not a rectangular array: {e}") from None
    if arr.dtype.kind == "O" and arr.ndim == 1 and len(arr) and isinstance(arr[0], (list, tuple, np.ndarray)):
        raise PearsonError(f"{what}: not a rectangular array (rows of different lengths)")
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    if arr.ndim != 2:
        raise PearsonError(f"{what}: expected a 2-D array (rows × columns), got {arr.ndim} dimensions, shape {arr.shape}")
    return {f"{prefix}{j}": _column(arr[:, j], f"{prefix}{j}", what) for j in range(arr.shape[1])}, None


class Handover:
    """A temporary directory of .npz files handed to one run of the command.

    Files go to /dev/shm (memory) when it is writable and has room for them
    (a container's /dev/shm is often 64 MB), else to the temporary
    directory; all are removed when the run ends.
    """

    def __init__(self) -> None:
        self.dirs: List[str] = []
        self.names: Dict[str, str] = {}  # path → the name messages show

    def _dir(self, size: int) -> str:
        shm = "/dev/shm"
        base = None
        if os.path.isdir(shm) and os.access(shm, os.W_OK):
            try:
                if shutil.disk_usage(shm).free > 2 * size + (64 << 20):
                    base = shm
            except OSError:
                pass
        for d in self.dirs:
            if os.path.dirname(d) == (base or tempfile.gettempdir()):
                return d
        d = tempfile.mkdtemp(prefix="pearson-", dir=base)
        self.dirs.append(d)
        return d

    def write(self, name: str, columns: Mapping[str, np.ndarray]) -> str:
        size = sum(int(v.nbytes) for v in columns.values())
        path = os.path.join(self._dir(size), name + ".npz")
        try:
            with open(path, "wb") as f:
                np.savez(f, **columns)
        except OSError as e:
            raise PearsonError(f"{name}: cannot hand the data over in {os.path.dirname(path)} "
                               f"({size / 1e6:.0f} MB): {e}; set TMPDIR to a directory with room") from None
        self.names[path] = name
        return path

    def arg(self, data: Any, name: str, what: str, prefix: str = "x") -> Tuple[str, Any, List[str]]:
        """A command-line argument for data: its path, or the .npz written.
        Returns (argument, pandas index or None, column names or [])."""
        if _is_path(data):
            return os.fspath(data), None, []
        cols, index = table(data, what, prefix)
        return self.write(name, cols), index, list(cols)

    def close(self) -> None:
        for d in self.dirs:
            shutil.rmtree(d, ignore_errors=True)

    def __enter__(self) -> "Handover":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# --- options -----------------------------------------------------------------

def flags(options: Mapping[str, Any]) -> List[str]:
    """Command-line flags from keyword options: k=100 → --k 100, scan=True →
    --scan, columns=["a", "b"] → --columns a,b; None and False leave a flag out."""
    out: List[str] = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.rstrip("_").replace("_", "-")
        if value is True:
            out.append(flag)
        elif isinstance(value, (list, tuple)):
            out += [flag, ",".join(str(v) for v in value)]
        elif isinstance(value, (float, np.floating)):
            out += [flag, repr(float(value))]
        else:
            out += [flag, str(value)]
    return out


# --- running -------------------------------------------------------------------

_line = re.compile(r"(: )line (\d+)")
_column_re = re.compile(r'column "((?:[^"\\]|\\.)*)"')
_trace = re.compile(r"^(panic:|goroutine \d+|fatal error:|runtime[:.])", re.M)


def _error(stderr: str, code: int, names: Mapping[str, str]) -> PearsonError:
    """The PearsonError of a failed run: its last "pearson: " message, with
    the temporary paths replaced by the names of the arguments, rows of
    handed-over data counted from 0, and flags spelled as keywords."""
    if _trace.search(stderr):
        return PearsonError(f"internal error in the pearson command (exit code {code}); "
                            "please report it with the call that caused it", exit_code=code)
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    errs = [ln for ln in lines if ln.startswith("pearson: ") or ln.startswith("Incorrect Usage")]
    msg = errs[-1] if errs else (lines[-1] if lines else f"the pearson command failed (exit code {code})")
    msg = msg.removeprefix("pearson: ")
    row = None
    handed = False
    for path, name in names.items():
        if path in msg:
            handed = True
            msg = msg.replace(path, name)
    if handed:
        m = _line.search(msg)
        if m:
            row = int(m.group(2)) - 1
            msg = _line.sub(lambda mm: f"{mm.group(1)}row {int(mm.group(2)) - 1}", msg, count=1)
    msg = msg.replace("--drop-missing", "drop_missing=True").replace("--scan", "scan=True")
    cm = _column_re.search(msg)
    column = json.loads('"' + cm.group(1) + '"') if cm else None
    return PearsonError(msg, column=column, row=row, exit_code=code)


def run(command: str, args: Sequence[str], names: Mapping[str, str] = {}, progress: bool = False,
        ok: Sequence[int] = (0,)) -> Tuple[Any, List[str]]:
    """Runs `pearson command args... --format json`; returns the parsed JSON
    (None when the command printed nothing) and the notes it wrote on
    standard error.

    The wait releases the GIL (other threads run, and so do other calls, in
    their own processes). A KeyboardInterrupt while waiting stops the command
    (SIGINT, then SIGKILL after a second) before it propagates.
    """
    argv = [binary(), command, *args, "--progress", "always" if progress else "never"]
    if "--format" not in args:
        argv += ["--format", "json"]
    env = dict(os.environ)
    env.setdefault("GOTRACEBACK", "none")  # a crash prints no goroutine dump
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, env=env)
    except OSError as e:
        raise PearsonError(f"cannot run the pearson command {argv[0]!r}: {e}") from None
    err_lines: List[str] = []

    def pump() -> None:  # stderr, shown as it comes when progress is asked for
        assert proc.stderr is not None
        for raw in iter(proc.stderr.readline, b""):
            text = raw.decode("utf-8", "replace")
            err_lines.append(text)
            if progress:
                sys.stderr.write(text)
                sys.stderr.flush()

    t = threading.Thread(target=pump, daemon=True)
    t.start()
    try:
        assert proc.stdout is not None
        out = proc.stdout.read()
        code = proc.wait()
    except BaseException:
        _stop(proc)
        raise
    finally:
        t.join(timeout=5)
    stderr = "".join(err_lines)
    if code == 130 or code == -signal.SIGINT:
        raise KeyboardInterrupt
    if code not in ok:
        raise _error(stderr, code, names)
    notes = [ln.removeprefix("pearson: ").rstrip("\n") for ln in err_lines if ln.startswith("pearson: ")]
    for path, name in names.items():
        notes = [n.replace(path, name) for n in notes]
    text = out.decode("utf-8")
    if not text.strip():
        return None, notes
    try:
        return json.loads(text), notes
    except json.JSONDecodeError as e:
        raise PearsonError(f"the pearson command printed something other than JSON ({e})") from None


def _stop(proc: "subprocess.Popen[bytes]") -> None:
    """Stops the command: SIGINT (it exits within a second), then SIGKILL."""
    if proc.poll() is not None:
        return
    try:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=1)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    except OSError:
        pass
