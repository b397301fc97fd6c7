"""CRH on continuous answers: seconds per iteration on a Dask LocalCluster (2 workers, from Parquet) beside the in-memory fit.

Run `python benchmarks/bench_dask_crh.py` (10⁶ and 10⁷ answers, both losses; about 10 minutes on 2 cores; writes
benchmarks/results/bench_dask_crh.md) or `--quick` (10⁵ answers, a smoke test; prints only unless --out).
"""
from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import dask.dataframe as dd
from dask.distributed import Client, LocalCluster

from ldp_truth import distributed as dist
from ldp_truth.kernels import crh_weights
from ldp_truth.data import Answers
from ldp_truth.inference import CRH
from ldp_truth.simulate import claim_workers, contaminate

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_dask_crh.md"
SEED = 20261123
ANSWERS_PER_TASK = 10
DIRT = {"zero": 1, "drop_digit": 1, "repeat_digit": 1, "vandal": 1}


def simulate(n_answers: int, n_workers: int) -> Answers:
    "About `n_answers` claim-like answers (10 per task) with 1 % of them replaced by zeros, digit slips and vandal values."
    n_tasks = max(1, n_answers // ANSWERS_PER_TASK)
    ds = claim_workers(n_workers, n_tasks, density=ANSWERS_PER_TASK / n_workers, rng=SEED)
    return contaminate(ds, 0.01, DIRT, rng=SEED + 1).answers


def to_parquet_by_task(A: Answers, path: Path, npartitions: int) -> None:
    "Write the answers as Parquet files, each holding a contiguous range of tasks (so `by_task=True` holds)."
    order = np.argsort(A.task, kind="stable")
    bounds = np.searchsorted(A.task[order], np.linspace(0, A.n_tasks, npartitions + 1))
    path.mkdir(parents=True, exist_ok=True)
    for i in range(npartitions):
        rows = order[bounds[i]:bounds[i + 1]]
        pd.DataFrame({"worker": A.worker[rows], "task": A.task[rows], "label": A.value[rows]}).to_parquet(
            path / f"part-{i:04d}.parquet", index=False)


def seconds(f) -> float:
    "Wall-clock seconds of one call of `f()`."
    t = time.perf_counter(); f(); return time.perf_counter() - t


def in_memory(A: Answers, make, repeats: int) -> dict:
    "The in-memory fit: its seconds and iterations, and seconds per iteration: the median over `repeats` of (T(k iterations) − T(1)) / (k − 1), k ≤ 10."
    t = time.perf_counter(); fit = make(100).fit(A); total = time.perf_counter() - t
    k = min(fit.n_iter_, 10)
    per_iter = float(np.median([(seconds(lambda: make(k).fit(A)) - seconds(lambda: make(1).fit(A))) / (k - 1)
                                for _ in range(repeats)])) if k > 1 else float("nan")
    return dict(fit=fit, mem_fit_s=total, mem_iters=fit.n_iter_, mem_s_per_iter=per_iter)


def on_cluster(client, path: Path, make, rounds: int) -> dict:
    "The Dask fit from Parquet: set-up seconds, the median seconds of `rounds` iterations, and the whole fit (to compare)."
    agg, ddf = make(100), dd.read_parquet(path)
    t = time.perf_counter()
    D = dist.DaskAnswers(ddf, by_task=True, client=client)
    total = D.crh_start(agg.loss == "squared", agg.cap)
    setup = time.perf_counter() - t
    fallback = seconds(lambda: dist._fallback_scale(client, D._parts))       # once more, timed on its own
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        total, _change = D.crh_round(crh_weights(total))
        times.append(time.perf_counter() - t)
    del D
    t = time.perf_counter(); fit = make(100).fit(dd.read_parquet(path)); total_s = time.perf_counter() - t
    truths = fit.labels_.compute()
    return dict(fit=fit, truths=truths, dask_setup_s=setup, fallback_s=fallback, dask_s_per_iter=float(np.median(times)), dask_fit_s=total_s,
                dask_iters=fit.n_iter_)


def compare(A: Answers, mem, dask_fit, truths: pd.Series) -> dict:
    "How far the Dask fit is from the in-memory one: share of identical truths, largest relative gaps."
    t = truths.reindex(np.arange(A.n_tasks)).to_numpy()
    gap = np.abs(t - mem.labels_) / np.maximum(np.abs(mem.labels_), 1e-300)
    return dict(identical_truths=float(np.mean(t == mem.labels_)), max_rel_truth_gap=float(gap.max()),
                max_rel_weight_gap=float(np.max(np.abs(dask_fit.weights_ / mem.weights_ - 1))))


def run(sizes: list, n_workers: int, partitions: int, rounds: int) -> pd.DataFrame:
    "One row per (answers, loss): in memory and on a LocalCluster of 2 one-thread worker processes, same process."
    logging.getLogger("distributed").setLevel(logging.ERROR)
    rows = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client, tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            A = simulate(n, n_workers)
            where = Path(tmp) / str(n)
            to_parquet_by_task(A, where, partitions)
            for loss in ("absolute", "squared"):
                make = lambda k: CRH(n_iter=k, loss=loss)
                mem = in_memory(A, make, rounds)
                on = on_cluster(client, where, make, rounds)
                row = dict(answers=A.n_answers, workers=A.n_workers, tasks=A.n_tasks, partitions=partitions, loss=loss,
                           **{k: v for k, v in mem.items() if k != "fit"},
                           **{k: v for k, v in on.items() if k not in ("fit", "truths")},
                           **compare(A, mem["fit"], on["fit"], on["truths"]))
                row["dask_vs_mem"] = row["dask_s_per_iter"] / row["mem_s_per_iter"]
                print(row, flush=True)
                rows.append(row)
            del A
    return pd.DataFrame(rows)


def markdown(df: pd.DataFrame) -> str:
    "A DataFrame as a Markdown table (4 significant digits)."
    fmt = lambda v: f"{v:.4g}" if isinstance(v, float) else f"{v:,}" if isinstance(v, (int, np.integer)) else str(v)
    return "\n".join(["| " + " | ".join(df.columns) + " |", "|" + "---:|" * df.shape[1]]
                     + ["| " + " | ".join(fmt(v) for v in r) + " |" for r in df.itertuples(index=False)])


def report(df: pd.DataFrame, args) -> str:
    "The results file: set-up, table, column definitions."
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE).stdout.strip()
    return f"""# CRH on a Dask cluster (continuous answers)

Generated by `benchmarks/bench_dask_crh.py` on {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, commit {commit},
{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}.
Data: `claim_workers({args.workers}, answers/10, density=10/{args.workers})` with 1 % of the answers replaced by
zeros, digit slips and vandal values (`contaminate`), written as {args.partitions} Parquet files by task range.
Cluster: `LocalCluster(n_workers=2, threads_per_worker=1)`, started by the process that also runs the in-memory fit, on a
machine shared with other jobs: load average (1/5/15 min) {" / ".join(f"{x:.1f}" for x in args.load[0])} at the start,
{" / ".join(f"{x:.1f}" for x in args.load[1])} at the end. Timings are noisy; compare within a row.

{markdown(df)}

- `mem_fit_s`, `mem_iters`: the in-memory `CRH(loss=...)` fit on `Answers` (default `tol`), seconds and iterations.
  `mem_s_per_iter` = (T(`n_iter=k`) − T(`n_iter=1`)) / (k − 1), k = min(iterations, 10), the median of {args.rounds} such
  differences: the cost of one more iteration, without set-up.
- `dask_setup_s`: reading the Parquet files, encoding, one sort per partition, median/MAD, the exact global fallback
  scale and the first loss sums (`DaskAnswers.crh_start`). `fallback_s`: the exact fallback scale alone (a count, then
  4 rounds of radix selection; part of the set-up), timed once more after it. `dask_s_per_iter`: the median of {args.rounds} iterations
  (`DaskAnswers.crh_round`: broadcast W weights, new truths and loss sums per partition, tree reduction).
  `dask_fit_s`, `dask_iters`: the whole `CRH().fit(dd.read_parquet(...))` (set-up included, truths left on the cluster).
- `dask_vs_mem`: seconds per iteration on the cluster over seconds per iteration in memory (the same 2 cores).
- `identical_truths`: share of tasks whose truth is bit-for-bit the in-memory one; `max_rel_truth_gap`,
  `max_rel_weight_gap`: the largest relative differences of truths and worker weights.
"""


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10⁵ answers only (smoke test; prints only unless --out)")
    p.add_argument("--out", type=Path, default=None, help=f"write the Markdown here (full run default: {DEFAULT_OUT})")
    p.add_argument("--workers", type=int, default=10_000, help="crowd workers in the simulated answers")
    p.add_argument("--partitions", type=int, default=4, help="Parquet files (= Dask partitions; default 2 per core)")
    p.add_argument("--rounds", type=int, default=5, help="timed cluster iterations, and in-memory differences, per row")
    args = p.parse_args(argv)
    sizes = [10**5] if args.quick else [10**6, 10**7]
    if args.quick: args.workers = 1000
    load = os.getloadavg()
    df = run(sizes, args.workers, args.partitions, args.rounds)
    args.load = (load, os.getloadavg())
    text = report(df, args)
    out = args.out or (None if args.quick else DEFAULT_OUT)
    if out: Path(out).write_text(text); print(f"wrote {out}")
    else: print(text)


if __name__ == "__main__":
    main()
