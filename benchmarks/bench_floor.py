"""Dawid–Skene's compiled iteration against its gather floor, in one process (K = 5, 2·10⁶ answers).

The floor of one EM iteration: the two passes over the answers that no arithmetic can avoid, timed alone with the
same orders and table sizes as the fit — the E-step's gather of one (K-float) row of log-confusions per answer in
task order, and the M-step's gather of one posterior row per answer in worker order, each summed per row. Each pass
is timed twice: plain (`floor_s`), and asking first for the row `kernels.PREFETCH_AHEAD` answers ahead as the
library's steps do (`ahead_floor_s`: a software prefetch, the same passes and distance). The library's iteration is
`DawidSkene(n_iter=n, tol=0)` on the numba path, (T(10) − T(1)) / 9; fits and floors interleaved, best of `rounds`,
timed twice: in wall time and in the process's CPU time (all its threads; on a shared machine the CPU time leaves
out the time spent waiting for a core). Run it twice and report the second run (both sides then load numba's disk
cache): `python benchmarks/bench_floor.py` (writes benchmarks/results/bench_floor.md), `--quick` (prints only),
`--big 100000000` (one row: 10⁸ answers, 10⁶ workers, (T(3) − T(1)) / 2, one round; written to
benchmarks/results/bench_floor_big.md).
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_scale import SEED, K, interleaved_marginal, markdown, simulate_frame   # noqa: E402

from ldp_truth import kernels                   # noqa: E402
from ldp_truth.data import Answers              # noqa: E402
from ldp_truth.inference import DawidSkene      # noqa: E402
from ldp_truth.kernels import AnswerOrder       # noqa: E402
from ldp_truth.simulate import confusion_workers_chunked, random_confusions   # noqa: E402

DEFAULT_OUT = HERE / "results" / "bench_floor.md"


@numba.njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def gather_rows(ptr, idx, table, out, cuts):
    "out[r] = Σ table[idx[a]] over r's answers a: one random K-float row gathered per answer."
    K = table.shape[1]
    for b in numba.prange(len(cuts) - 1):
        for r in range(cuts[b], cuts[b + 1]):
            out[r] = 0.0
            for a in range(ptr[r], ptr[r + 1]):
                for c in range(K):
                    out[r, c] += table[idx[a], c]


@numba.njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def gather_rows_ahead(ptr, idx, table, out, cuts):
    "`gather_rows`, asking first for the row `kernels.PREFETCH_AHEAD` answers ahead (the library's prefetch)."
    K, ahead, last = np.uint64(table.shape[1]), np.uint64(kernels.PREFETCH_AHEAD), np.uint64(len(idx) - 1)
    for b in numba.prange(len(cuts) - 1):
        for r in range(cuts[b], cuts[b + 1]):
            out[r] = 0.0
            for a in range(ptr[r], ptr[r + 1]):
                kernels._prefetch_row(table, idx[min(a + ahead, last)], K)
                for c in range(K):
                    out[r, c] += table[idx[a], c]


def floor_seconds(o: AnswerOrder, n_tasks: int, rounds: int, clock=time.perf_counter) -> dict:
    "Best-of-`rounds` seconds (by `clock`) of the E- and M-step's gather passes, plain and prefetching ahead."
    W, L = o.shape
    rng = np.random.default_rng(0)
    logs, P = rng.random((W * L, K)), rng.random((n_tasks, K))
    e_idx = (o.tw.astype(np.uint64) * np.uint64(L) + o.tz).astype(np.uint64)
    wptr = o.wptr if not o.by_task else kernels._unsigned(kernels._run(kernels._starts, o.tw, W))
    wt = o.wt if not o.by_task else kernels._run(kernels._group, o.tw, wptr, np.repeat(
        np.arange(n_tasks, dtype=np.uint32), np.diff(o.tptr.astype(np.int64))))
    wcuts = kernels._cuts(wptr.astype(np.int64))
    e_out, m_out, w_idx = np.empty((n_tasks, K)), np.empty((W, K)), wt.astype(np.uint64)
    passes = {"e_gather": (o.tptr, e_idx, logs, e_out, o.tcuts), "m_gather": (wptr, w_idx, P, m_out, wcuts)}
    best = {}
    for _ in range(rounds):
        for name, args in passes.items():
            for tag, gather in (("", gather_rows), ("_ahead", gather_rows_ahead)):
                t = clock(); gather(*args)
                best[name + tag] = min(best.get(name + tag, np.inf), clock() - t)
    return best


def big_answers(n_answers: int, n_workers: int) -> Answers:
    "bench_scale's one-machine answers (10 per task), simulated in chunks: no DataFrame of 10⁸ rows."
    conf = random_confusions(n_workers, K, rng=SEED)
    return confusion_workers_chunked(n_workers, n_answers // 10, conf, density=10 / n_workers, rng=SEED + 1).answers


def measure(n_answers: int, worker_counts: list, rounds: int, n_iter: int = 10, big: bool = False) -> pd.DataFrame:
    "Per-iteration seconds of the library's compiled fit and its gather floor, per number of workers."
    kernels.set_kernel_path("numba")
    rows = []
    for W in worker_counts:
        A = big_answers(n_answers, W) if big else Answers.from_frame(simulate_frame(n_answers, W))
        o = AnswerOrder(A.worker, A.task, A.value, A.n_workers, A.n_tasks, A.n_classes)
        fits = {"library": lambda n: DawidSkene(n_iter=n, tol=0).fit(A)}
        before, row = f"{os.getloadavg()[0]:.1f}", dict(answers=A.n_answers, workers=W, table_MB=W * K * K * 8 / 1e6)
        for clock, tag in ((time.perf_counter, ""), (time.process_time, "cpu_")):
            fit = interleaved_marginal(fits, n_iter, rounds, clock)["library"]
            floor = floor_seconds(o, A.n_tasks, rounds + 2, clock)
            total, ahead = (floor[f"e_gather{s}"] + floor[f"m_gather{s}"] for s in ("", "_ahead"))
            row.update({f"{tag}library_s": fit, f"{tag}e_gather_s": floor["e_gather"],
                        f"{tag}m_gather_s": floor["m_gather"], f"{tag}floor_s": total,
                        f"{tag}e_ahead_s": floor["e_gather_ahead"], f"{tag}m_ahead_s": floor["m_gather_ahead"],
                        f"{tag}ahead_floor_s": ahead, f"{tag}library_vs_floor": fit / total,
                        f"{tag}library_vs_ahead_floor": fit / ahead})
        rows.append(dict(row, load_1min=f"{before}→{os.getloadavg()[0]:.1f}"))
    kernels.set_kernel_path(None)
    return pd.DataFrame(rows)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="2·10⁵ answers, prints only")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--big", type=int, help="one row of this many answers (answers/100 workers), 1 round, T(3) − T(1)")
    p.add_argument("--out", type=Path, default=None)
    a = p.parse_args(argv)
    n, counts = (200_000, [100, 2_000]) if a.quick else (2_000_000, [1_000, 20_000, 200_000])
    if a.big:
        n, counts, a.rounds = a.big, [a.big // 100], 1
    table = measure(n, counts, a.rounds, 3 if a.big else 10, bool(a.big))
    stamp = f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC"
    text = (f"# bench_floor ({os.cpu_count()} cores, numba {numba.__version__} on {numba.get_num_threads()} "
            f"threads; {stamp})\n\n{markdown(table)}\n\n"
            f"`library_s`: seconds per EM iteration of `DawidSkene` on the numba path, (T({3 if a.big else 10}) − T(1)) / "
            f"{2 if a.big else 9}, best "
            f"of {a.rounds}; `floor_s` = `e_gather_s` + `m_gather_s`, the two gather passes alone (best of "
            f"{a.rounds + 2}); `ahead_floor_s` = `e_ahead_s` + `m_ahead_s`, the same passes asking first for the "
            f"row {kernels.PREFETCH_AHEAD} answers ahead (`kernels.PREFETCH_AHEAD`, as the library's steps do); the "
            "`cpu_` columns: the same, timed in the process's CPU time (all threads). `load_1min`: the load average "
            "(2 cores, shared) before → after the row. The goal asked for is `library_vs_floor` ≤ 1.3; the library "
            "prefetches, so `library_vs_ahead_floor` is the comparison against a floor it can reach.\n")
    print(text)
    out = a.out or (None if a.quick else HERE / "results" / "bench_floor_big.md" if a.big else DEFAULT_OUT)
    if out:
        out.write_text(text)


if __name__ == "__main__":
    main()
