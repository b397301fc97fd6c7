"""What `infer --workers` costs beside the fit, and how often its random-worker test is right.

A crowd of one-coin workers (`simulate.one_coin`, three classes, accuracy U(0.7, 0.95)) with one worker in five
answering at random, privatized by randomized response at ε per answer. For each (ε, answers per worker): the
share of random workers flagged `indistinguishable_from_random`, the share of good ones flagged, the share of good
ones given a `Reject` reason (the error that matters: it should be 0), and the time of
`cli_infer.worker_table` as a ratio of the Dawid–Skene fit's time (same process, interleaved, median of rounds).
Run `python benchmarks/bench_workers.py` (writes benchmarks/results/bench_workers.md) or `--quick`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ldp_truth.cli_infer import worker_table
from ldp_truth.data import Answers
from ldp_truth.inference import DawidSkene
from ldp_truth.mechanisms import RandomizedResponse

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_workers.md"


def crowd(n_workers: int, per_worker: int, epsilon: float, rng) -> tuple:
    "(private answers, is_random per worker index) of a crowd with one random worker in five."
    n_tasks, K = max(n_workers * per_worker // 8, per_worker), 3
    truth = rng.integers(0, K, n_tasks)
    worker = np.repeat(np.arange(n_workers), per_worker)
    task = np.concatenate([rng.choice(n_tasks, per_worker, replace=False) for _ in range(n_workers)])
    random = np.arange(n_workers) % 5 == 4
    acc = rng.uniform(0.7, 0.95, n_workers)[worker]
    right = rng.random(len(task)) < acc
    value = np.where(right, truth[task], (truth[task] + rng.integers(1, K, len(task))) % K)
    value = np.where(random[worker], rng.integers(0, K, len(task)), value)
    A = Answers(worker, task, value, kind="categorical", classes=np.array(["a", "b", "c"]))
    return RandomizedResponse(epsilon, K).privatize(A, rng=rng), random


def one(n_workers: int, per_worker: int, epsilon: float, rounds: int, seed: int) -> dict:
    "Flag and reject shares, and the time ratio worker_table / fit, for one setting."
    rng = np.random.default_rng(seed)
    P, random = crowd(n_workers, per_worker, epsilon, rng)
    table = P.to_frame()
    fit_s, table_s = [], []
    for _ in range(rounds):  # interleaved: the two timings share the machine's state
        t = time.perf_counter()
        agg = DawidSkene().fit(P)
        fit_s.append(time.perf_counter() - t)
        t = time.perf_counter()
        with contextlib.redirect_stderr(io.StringIO()):
            wk = worker_table(agg, P, table, None, "ds")
        table_s.append(time.perf_counter() - t)
    flagged, rejected = wk.indistinguishable_from_random.to_numpy(), (wk.Reject != "").to_numpy()
    return {"workers": n_workers, "answers per worker": per_worker, "epsilon": epsilon,
            "random flagged": flagged[random].mean(), "good flagged": flagged[~random].mean(),
            "good rejected": rejected[~random].mean(), "random rejected": rejected[random].mean(),
            "worker_table / fit time": np.median(table_s) / np.median(fit_s)}


def main(argv=None) -> pd.DataFrame:
    "Run the grid; write the Markdown table."
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a small grid, one round")
    p.add_argument("-o", "--output", default=str(DEFAULT_OUT))
    args = p.parse_args(argv)
    grid = [(500, 20, 2.0), (500, 60, 2.0), (500, 20, 0.5), (5000, 20, 2.0)]
    rows = [one(w, m, e, 1 if args.quick else 3, seed) for seed, (w, m, e) in
            enumerate(grid[:2] if args.quick else grid)]
    df = pd.DataFrame(rows)
    load = os.getloadavg()[0]
    text = (f"# bench_workers\n\nload average {load:.1f} at the end; ratios, interleaved in one process.\n\n"
            + "```\n" + df.to_string(index=False, float_format=lambda x: f"{x:.3g}") + "\n```\n")
    Path(args.output).write_text(text, encoding="utf-8")
    print(text)
    return df


if __name__ == "__main__":
    main()
