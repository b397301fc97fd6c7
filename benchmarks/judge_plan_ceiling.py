"""The ceiling of judge_plan.py's protocol: how far a 10 % pilot's own accuracy is from the other tasks'.

Per dataset × ε × answers per task r, realised as judge_plan.py does but on all tasks jointly (each keeps r random
answers of its own, K-ary randomized response, Dawid–Skene through the channel; each task's share of right labels
over `--realisations` draws), then
(a) the oracle error of the first-10 % pilot: |accuracy on its tasks − accuracy on the other tasks|, what a
    predictor that knew the pilot's own accuracy under this protocol exactly would be off by;
(b) over `--pilots` random 10 % pilots, the share whose oracle error is ≤ 0.03.
The share of cells where (a) ≤ 0.03 is the most any predictor from the first-10 % pilot reaches on this protocol
(bar luck); it is printed beside the goal and judge_plan.csv's. 03i_confidence reads the CSV.

    nice python benchmarks/judge_plan_ceiling.py
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from judge_plan import DEFAULT_OUT as PLAN_CSV, EPS, RS, SETS, privatized_labels

from ldp_truth.data import load_dataset

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "judge_plan_ceiling.csv"
WITHIN = 0.03  # the goal's tolerance
GOAL = 0.8  # the goal's share of cells


def correctness(A, truth: np.ndarray, eps: float, r: int, realisations: int, rng) -> np.ndarray:
    "Each truth task's share of right Dawid–Skene labels over `realisations` privatized draws."
    everything = np.ones(A.n_tasks, bool)
    t = np.isfinite(truth)
    return np.mean([privatized_labels(A, everything, eps, r, rng)[t] == truth[t]
                    for _ in range(realisations)], axis=0)


def oracle_errors(right: np.ndarray, pilots: np.ndarray) -> np.ndarray:
    "Per pilot (a row of task indices): |its tasks' mean correctness − the other tasks'|."
    n, m = len(right), pilots.shape[1]
    inside = right[pilots].sum(1)
    return np.abs(inside / m - (right.sum() - inside) / (n - m))


def ceiling_set(name: str, realisations: int, n_pilots: int) -> pd.DataFrame:
    "One row per (ε, r): the first-10 % pilot's and the other tasks' accuracy, the oracle errors."
    ds = load_dataset(name)
    A, truth = ds.answers, ds.truth
    n, rng = int(np.isfinite(truth).sum()), np.random.default_rng(4849)
    first = np.arange(A.n_tasks)[np.isfinite(truth)] < A.n_tasks // 10  # judge_plan.py's pilot
    m = int(first.sum())
    randoms = np.argsort(rng.random((n_pilots, n)), 1)[:, :m]
    rows = []
    for eps in EPS:
        for r in RS:
            right = correctness(A, truth, eps, r, realisations, rng)
            rows.append(dict(
                dataset=name, epsilon=eps, answers_per_task=r, pilot_tasks=m,
                pilot_accuracy=right[first].mean(), rest_accuracy=right[~first].mean(),
                oracle_error=oracle_errors(right, np.flatnonzero(first)[None])[0],
                random_within=(oracle_errors(right, randoms) <= WITHIN).mean(),
            ))
    return pd.DataFrame(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--realisations", type=int, default=50)
    ap.add_argument("--pilots", type=int, default=200)
    ap.add_argument("--sets", nargs="+", default=list(SETS))
    args = ap.parse_args()
    frames = []
    for name in args.sets:
        start = time.perf_counter()
        frames.append(ceiling_set(name, args.realisations, args.pilots))
        print(f"{name}: {time.perf_counter() - start:.0f} s", flush=True)
    df = pd.concat(frames)
    df.to_csv(args.out, index=False)
    ours = pd.read_csv(PLAN_CSV)
    print(f"within {WITHIN} in {len(df)} cells: the first-10 % pilot's oracle "
          f"{(df.oracle_error <= WITHIN).mean():.0%} (the ceiling), a random 10 % pilot's "
          f"{df.random_within.mean():.0%}, the goal {GOAL:.0%}, ours "
          f"{((ours.predicted - ours.realised).abs() <= WITHIN).mean():.0%} ({PLAN_CSV.name})")


if __name__ == "__main__":
    main()
