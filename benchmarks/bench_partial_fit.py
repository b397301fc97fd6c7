"""`partial_fit` of a small batch against a full refit, in one process: seconds, EM iterations, peak memory.

Run `python benchmarks/bench_partial_fit.py` (10⁷ answers, 1 % batch, about 5 minutes on 2 cores; writes
benchmarks/results/bench_partial_fit.md), `--quick` (10⁵ answers, prints only), `--answers N`, `--share S`.
The answers are bench_scale's simulated Dawid–Skene answers (K = 5, 10 answers per task, 1 000 workers); the model
holds all but a random `share` of them (fitted by partial_fit, untimed); then, interleaved, best of `rounds`:
`partial_fit(batch)` on a copy of that model, and `DawidSkene().fit(all answers)`.
"""
from __future__ import annotations

import argparse
import copy
import datetime as dt
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_scale import markdown, simulate_frame   # noqa: E402

from ldp_truth.data import Answers                  # noqa: E402
from ldp_truth.inference import DawidSkene          # noqa: E402
from ldp_truth.kernels import describe_kernels      # noqa: E402

DEFAULT_OUT = HERE / "results" / "bench_partial_fit.md"


def split(df: pd.DataFrame, share: float, seed: int = 0) -> tuple:
    "The answers so far and a random batch of `share` of them, each as `Answers` with its own ids."
    batch = np.random.default_rng(seed).random(len(df)) < share
    classes = np.sort(df.label.unique())
    return Answers.from_frame(df[~batch], classes=classes), Answers.from_frame(df[batch], classes=classes)


def peak(f) -> tuple:
    "f()'s result and the peak bytes NumPy allocated while it ran (tracemalloc)."
    tracemalloc.start()
    try:
        out = f()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(n_answers: int, share: float, rounds: int) -> pd.DataFrame:
    "Best-of-`rounds` seconds, iterations and peak memory of the warm partial_fit and the refit, interleaved."
    df = simulate_frame(n_answers, 1_000)
    so_far, batch = split(df, share)
    state = DawidSkene().partial_fit(so_far)
    times = {"partial_fit": [], "refit": []}
    for _ in range(rounds):
        model = copy.deepcopy(state)
        t = time.perf_counter(); model.partial_fit(batch); times["partial_fit"].append(time.perf_counter() - t)
        t = time.perf_counter(); refit = DawidSkene().fit(model.answers_); times["refit"].append(time.perf_counter() - t)
    model = copy.deepcopy(state)
    model, warm_peak = peak(lambda: model.partial_fit(batch))
    refit, refit_peak = peak(lambda: DawidSkene().fit(model.answers_))
    tight = DawidSkene(n_iter=1000, tol=1e-10).fit(model.answers_)
    n = model.answers_.n_answers
    rows = [dict(fit=name, answers=n, batch=len(batch), seconds=min(times[name]), em_iterations=m.n_iter_,
                 peak_bytes_per_answer=p / n, labels_as_tight_refit=f"{(m.labels_ == tight.labels_).mean():.5%}")
            for name, m, p in [("partial_fit", model, warm_peak), ("refit", refit, refit_peak)]]
    out = pd.DataFrame(rows)
    out["vs_refit"] = out.seconds / out.seconds.iloc[1]
    return out


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10⁵ answers, prints only")
    p.add_argument("--answers", type=int, default=10_000_000)
    p.add_argument("--share", type=float, default=0.01)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--out", type=Path, default=None)
    a = p.parse_args(argv)
    n = 100_000 if a.quick else a.answers
    out = a.out or (None if a.quick else DEFAULT_OUT)
    before = f"{os.getloadavg()[0]:.1f}"
    table = measure(n, a.share, a.rounds)
    stamp = f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC"
    text = (f"# bench_partial_fit ({os.cpu_count()} cores; {stamp}; load {before}→{os.getloadavg()[0]:.1f})\n\n"
            f"A {a.share:.0%} batch added to {n:,} answers (K = 5, 1 000 workers), {describe_kernels(n)}; "
            f"best of {a.rounds}, interleaved. `labels_as_tight_refit`: share of labels equal to a refit with "
            "`n_iter=1000, tol=1e-10`. Peak: bytes NumPy allocated during the call (tracemalloc), per answer.\n\n"
            f"{markdown(table)}\n")
    print(text)
    if out:
        out.write_text(text)


if __name__ == "__main__":
    main()
