"""How Dawid–Skene's cost grows: with the number of workers in memory (against crowd-kit), and on a Dask cluster
with the number of partitions and of answers (from Parquet files), with the scheduler's share of each iteration.

Run `python benchmarks/bench_scale.py` (about 10–20 minutes on 2 cores; writes benchmarks/results/bench_scale.md)
or `python benchmarks/bench_scale.py --quick` (small sizes, a smoke test; prints only unless --out).
"""
from __future__ import annotations

import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)   # crowd-kit on pandas 3
warnings.filterwarnings("ignore", category=FutureWarning)

import argparse
import datetime as dt
import logging
import os
import platform
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import crowdkit.aggregation as ck
import dask
import dask.dataframe as dd
from dask.distributed import Client, LocalCluster

from ldp_truth import distributed as dist
from ldp_truth.inference import DawidSkene
from ldp_truth.simulate import confusion_workers, random_confusions

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_scale.md"
SEED = 20261123
K = 5


def simulate_frame(n_answers: int, n_workers: int, answers_per_task: int = 10, seed: int = SEED) -> pd.DataFrame:
    "About `n_answers` simulated Dawid–Skene answers (K=5, `answers_per_task` per task) as a long DataFrame."
    n_tasks = max(1, n_answers // answers_per_task)
    ds = confusion_workers(n_workers, n_tasks, random_confusions(n_workers, K, rng=seed), density=answers_per_task / n_workers,
                           rng=seed + 1)
    A = ds.answers
    return pd.DataFrame({"worker": A.worker, "task": A.task, "label": A.value})


def marginal_seconds(fit, n_iter: int) -> float:
    "Seconds per iteration without set-up: (T(n_iter) − T(1)) / (n_iter − 1)."
    t1 = time.perf_counter(); fit(1); t1 = time.perf_counter() - t1
    tn = time.perf_counter(); fit(n_iter); tn = time.perf_counter() - tn
    return (tn - t1) / (n_iter - 1)


def workers_table(n_answers: int, worker_counts: list, n_iter: int) -> pd.DataFrame:
    "In memory: seconds per DS iteration, ours and crowd-kit's, at a fixed number of answers and growing worker counts."
    rows = []
    for W in worker_counts:
        df = simulate_frame(n_answers, W)
        ours = marginal_seconds(lambda n: DawidSkene(n_iter=n, tol=0).fit_predict(df), n_iter)
        theirs = marginal_seconds(lambda n: ck.DawidSkene(n_iter=n, tol=-np.inf).fit_predict(df), n_iter)
        rows.append(dict(answers=len(df), workers=W, ours_s_per_iter=ours, crowdkit_s_per_iter=theirs, speedup=theirs / ours))
        print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def dask_iteration(client, ddf, n_iter: int) -> dict:
    "Median seconds of one EM iteration (map-reduce) on the cluster, and the one-process compute time of all partitions."
    codes, parts = dist._encode(client, ddf, ("worker", "task", "label"), True, None)
    W = codes.n_workers
    log_conf, log_prior = np.log(np.full((W, K, K), 1 / K)), np.log(np.full(K, 1 / K))
    times = []
    for _ in range(n_iter):
        t = time.perf_counter()
        dist._map_reduce(client, parts, dist._em_step, client.scatter(log_conf, broadcast=True, hash=False), log_prior)
        times.append(time.perf_counter() - t)
    local = [dist._build_part(f.result(), codes, "worker", "task", "label") for f in dist_futures(client, ddf)]
    t = time.perf_counter()
    dist._add(*[dist._em_step(p, log_conf, log_prior) for p in local])
    compute = time.perf_counter() - t
    per_iter = float(np.median(times))
    return dict(s_per_iter=per_iter, compute_s=compute, compute_share=min(1.0, compute / 2 / per_iter))


def dist_futures(client, ddf) -> list:
    "The partitions of `ddf` as futures (to bring them, one at a time, into this process)."
    from dask.distributed import futures_of
    return futures_of(client.persist(ddf))


def markdown(df: pd.DataFrame) -> str:
    "A DataFrame as a Markdown table (4 significant digits)."
    fmt = lambda v: f"{v:.4g}" if isinstance(v, float) else f"{v:,}" if isinstance(v, (int, np.integer)) else str(v)
    return "\n".join(["| " + " | ".join(df.columns) + " |", "|" + "---:|" * df.shape[1]]
                     + ["| " + " | ".join(fmt(v) for v in r) + " |" for r in df.itertuples(index=False)])


def to_parquet_by_task(df: pd.DataFrame, path: Path, npartitions: int) -> None:
    "Write `df` as Parquet files partitioned by task ranges (each task's answers in one file)."
    df = df.sort_values("task")
    bounds = np.searchsorted(df.task.to_numpy(), np.linspace(0, df.task.max() + 1, npartitions + 1))
    path.mkdir(parents=True, exist_ok=True)
    for i in range(npartitions):
        df.iloc[bounds[i]:bounds[i + 1]].to_parquet(path / f"part-{i:04d}.parquet", index=False)


def dask_tables(client, sizes: list, partitions: list, n_workers: int, n_iter: int) -> tuple:
    "Seconds per iteration vs partitions (at the middle size) and vs answers (at 2 partitions per core), from Parquet."
    by_parts, by_size = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            df = simulate_frame(n, n_workers)
            for P in (partitions if n == sizes[len(sizes) // 2] else [4]):
                where = Path(tmp) / f"{n}-{P}"
                to_parquet_by_task(df, where, P)
                r = dict(answers=len(df), partitions=P, **dask_iteration(client, dd.read_parquet(where), n_iter))
                print(r, flush=True)
                (by_parts if n == sizes[len(sizes) // 2] else by_size).append(r)
                if P == 4 and n == sizes[len(sizes) // 2]: by_size.append(r)
    return pd.DataFrame(by_parts), pd.DataFrame(by_size).sort_values("answers")


def estimate(by_size: pd.DataFrame, n_workers: int, machines: int = 16, cores: int = 8, bandwidth: float = 1e9) -> str:
    "What 10⁹ answers on `machines` machines would take per iteration, from the measured compute per answer and the broadcast."
    big = by_size.iloc[-1]
    per_answer = big.compute_s / big.answers
    compute = 1e9 * per_answer / (machines * cores)
    broadcast = 2 * n_workers * K * K * 8 * machines / bandwidth   # parameters out, counts back, per machine
    return (f"- measured compute: {per_answer * 1e9:.1f} ns per answer per E+M step (largest size, one core)\n"
            f"- 10⁹ answers over {machines} machines × {cores} cores: {compute:.2f} s of compute per iteration\n"
            f"- broadcast of {n_workers} workers' K×K parameters and the counts back: {broadcast:.3f} s at "
            f"{bandwidth / 1e9:.0f} GB/s\n"
            f"- estimate: about {compute + broadcast:.1f} s per iteration, plus scheduling (measured here: the "
            f"non-compute share of an iteration); it assumes perfect balance, data already partitioned by task on the "
            f"machines' disks, {n_workers} workers (the broadcast grows with W·K², the compute with the answers).")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes (smoke test)")
    p.add_argument("--out", type=Path, default=None, help=f"write the Markdown table here (full run default: {DEFAULT_OUT})")
    a = p.parse_args(argv)
    logging.getLogger("distributed").setLevel(logging.ERROR)
    if a.quick:
        n_mem, worker_counts, sizes, partitions, n_iter = 20_000, [100, 2_000], [5_000, 10_000, 20_000], [2, 4], 3
    else:
        n_mem, worker_counts = 2_000_000, [1_000, 20_000, 200_000]
        sizes, partitions, n_iter = [100_000, 1_000_000, 10_000_000], [2, 4, 8, 16], 5
    out = a.out or (None if a.quick else DEFAULT_OUT)
    t0 = time.perf_counter()
    workers = workers_table(n_mem, worker_counts, n_iter)
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
        by_parts, by_size = dask_tables(client, sizes, partitions, 1000, n_iter)
    text = (f"# bench_scale ({dt.date.today()}, {platform.machine()}, {os.cpu_count()} cores, dask {dask.__version__}; "
            f"{time.perf_counter() - t0:.0f} s)\n\n"
            f"## In memory: seconds per DS iteration vs number of workers ({n_mem:,} answers, K={K})\n\n"
            f"{markdown(workers)}\n\n"
            f"## Dask LocalCluster (2 worker processes): vs partitions ({sizes[len(sizes) // 2]:,} answers, 1000 workers)\n\n"
            f"{markdown(by_parts)}\n\n"
            f"## Dask LocalCluster: vs answers (4 partitions, from Parquet)\n\n"
            f"{markdown(by_size)}\n\n"
            "`s_per_iter`: marginal seconds per EM iteration; `compute_s`: one E+M step of every partition timed in one "
            "process; `compute_share`: compute_s / (2 cores × s_per_iter), the rest is scheduling and transfers.\n\n"
            f"## 10⁹ answers on 16 machines (estimate)\n\n{estimate(by_size, 1000)}\n")
    print(text)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)


if __name__ == "__main__":
    main()
