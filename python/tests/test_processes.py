"""The package in the ways Python runs code concurrently: Ctrl-C during a
long call, threads, multiprocessing pools (fork and spawn) and joblib."""

import multiprocessing as mp
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import pearson
from conftest import FAST


def estimate(seed):
    """A small estimate in a worker: picklable, module level."""
    rng = np.random.default_rng(seed)
    return pearson.divergence(rng.normal(size=(200, 2)), rng.normal(0.5, 1, size=(200, 2)), seed=seed, **FAST).pe


def test_keyboard_interrupt_stops_a_long_test():
    script = textwrap.dedent("""
        import sys, time, numpy as np, pearson
        rng = np.random.default_rng(1)
        P, Q = rng.normal(size=(20000, 3)), rng.normal(size=(20000, 3))
        print("started", flush=True)
        try:
            pearson.test(P, Q, permutations=100000, m=20000)
        except KeyboardInterrupt:
            print("interrupted %.3f" % time.time(), flush=True)
        r = pearson.divergence(P[:200], Q[:200], k=20, m=200, draws=2)
        print("alive", r.pe, flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(2)  # the command is running: the hand-over takes well under a second
    assert proc.poll() is None
    sent = time.time()
    proc.send_signal(signal.SIGINT)
    line = proc.stdout.readline().split()
    rest, err = proc.communicate(timeout=120)
    assert line and line[0] == "interrupted", (line, err)
    assert float(line[1]) - sent < 1.0, f"KeyboardInterrupt after {float(line[1]) - sent:.2f} s"
    assert rest.startswith("alive"), err
    assert "Traceback" not in err and "goroutine" not in err


def test_two_threads_run_in_parallel():
    """Each call waits on its own process with the GIL released: the two
    calls overlap. On an idle 2-core machine the wall time of two calls in
    threads is about half that of two in sequence; the machine's load makes
    that ratio noisy, so the test asserts the overlap and prints the ratio."""
    rng = np.random.default_rng(12)
    P, Q = rng.normal(size=(3000, 3)), rng.normal(size=(3000, 3))
    kw = dict(k=100, m=1500, draws=2, sigma=1.0, lambda_=0.1)

    def call(spans, i):
        t0 = time.perf_counter()
        pearson.divergence(P, Q, seed=i + 1, **kw)
        spans[i] = (t0, time.perf_counter())

    seq = [None, None]
    t0 = time.perf_counter()
    call(seq, 0)
    call(seq, 1)
    sequential = time.perf_counter() - t0
    par = [None, None]
    threads = [threading.Thread(target=call, args=(par, i)) for i in range(2)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    parallel = time.perf_counter() - t0
    print(f"two calls: sequential {sequential:.2f} s, threads {parallel:.2f} s, ratio {parallel / sequential:.2f}, "
          f"load {os.getloadavg()[0]:.1f}")
    (a0, a1), (b0, b1) = par
    overlap = min(a1, b1) - max(a0, b0)
    assert overlap > 0.5 * min(a1 - a0, b1 - b0), "the two calls did not run at the same time"


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_multiprocessing_pool_after_use(method):
    parent = estimate(1)  # the parent has used the package
    ctx = mp.get_context(method)
    with ctx.Pool(2) as pool:
        got = pool.map(estimate, [1, 2, 3])
    assert got[0] == parent and all(np.isfinite(got))


def test_joblib_after_use():
    joblib = pytest.importorskip("joblib")
    parent = estimate(4)
    got = joblib.Parallel(n_jobs=2)(joblib.delayed(estimate)(s) for s in [4, 5])
    assert got[0] == parent and np.isfinite(got[1])
