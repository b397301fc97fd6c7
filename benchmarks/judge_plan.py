"""`predict_accuracy` (ldp-truth plan) held out: a pilot of the first 10 % of tasks against the realised accuracy.

Per dataset × ε × answers per task r: the prediction from the pilot (the first 10 % of task indices, their truth as
gold; `--trials` collections from it and as many from bootstraps of it) against the accuracy Dawid–Skene through
K-ary randomized response really reaches on the other 90 % of tasks when each keeps r random answers of its own
(all when it has fewer) and is privatized (mean of `--realisations` draws). 03i_confidence reads the CSV.

    nice python benchmarks/judge_plan.py
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ldp_truth.data import Answers, load_dataset
from ldp_truth.inference import DawidSkene, predict_accuracy
from ldp_truth.mechanisms import RandomizedResponse

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "judge_plan.csv"
SETS = ("barzan", "dog", "face", "temp", "weather", "web")  # every task with a truth, ≥ 300 tasks (pilot ≥ 30)
# sp is left out of the judged six: its first 10 % of tasks are all of one class (no sample of the set); --sets sp
# shows what such a pilot predicts
EPS = (0.5, 1.0, 2.0, 4.0)
RS = (3, 5, 7, 9)


def subset(A: Answers, keep: np.ndarray) -> Answers:
    "The answers where `keep`, indices unchanged."
    return Answers(A.worker[keep], A.task[keep], A.value[keep], n_workers=A.n_workers,
                   n_tasks=A.n_tasks, n_classes=A.n_classes)


def privatized_labels(A: Answers, rest: np.ndarray, eps: float, r: int, rng) -> np.ndarray:
    "Dawid–Skene's labels of the `rest` tasks kept to r random answers each and privatized."
    mech = RandomizedResponse(eps, A.n_classes)
    keep = rest[A.task]
    k = subset(A, keep)
    rank = np.empty(k.n_answers, np.int64)
    shuffled = np.lexsort((rng.random(k.n_answers), k.task))
    counts = np.bincount(k.task, minlength=k.n_tasks)
    rank[shuffled] = np.arange(k.n_answers) - np.repeat(np.cumsum(counts) - counts, counts)
    chosen = subset(k, rank < r)
    P = mech.privatize(chosen, rng=rng)
    return DawidSkene(channel=mech.transition_matrix()).fit(P).labels_


def realised(A: Answers, truth: np.ndarray, rest: np.ndarray, eps: float, r: int, rng) -> float:
    "Dawid–Skene's accuracy on the `rest` tasks kept to r random answers each and privatized."
    labels = privatized_labels(A, rest, eps, r, rng)
    t = rest & np.isfinite(truth)
    return float((labels[t] == truth[t]).mean())


def judge_set(name: str, trials: int, realisations: int, pilot_seed=None) -> pd.DataFrame:
    "One row per (ε, r): predicted, its interval, realised (pilot_seed: a random 10 % pilot)."
    ds = load_dataset(name)
    A = ds.answers
    pilot = np.arange(A.n_tasks) < A.n_tasks // 10
    if pilot_seed is not None:
        pilot = np.random.default_rng(pilot_seed).permutation(pilot)
    gold = np.where(pilot, ds.truth, np.nan)
    channels = {e: RandomizedResponse(e, A.n_classes).transition_matrix() for e in EPS}
    plan = predict_accuracy(subset(A, pilot[A.task]), channels, RS, int((~pilot).sum()), gold=gold,
                            trials=trials, rng=48)
    rng = np.random.default_rng(4848)
    plan["realised"] = [
        np.mean([realised(A, ds.truth, ~pilot, e, r, rng) for _ in range(realisations)])
        for e, r in zip(plan.epsilon, plan.answers_per_task)
    ]
    present = np.unique(ds.truth[pilot][np.isfinite(ds.truth[pilot])])
    return plan.assign(dataset=name, pilot_classes=len(present), pilot_seed=pilot_seed)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--realisations", type=int, default=5)
    ap.add_argument("--sets", nargs="+", default=list(SETS))
    ap.add_argument("--pilot-seeds", nargs="+", type=int, default=[None],
                    help="random 10 %% pilots drawn with these seeds (default: the first 10 %% of tasks)")
    args = ap.parse_args()
    frames = []
    for name in args.sets:
        for seed in args.pilot_seeds:
            start = time.perf_counter()
            frames.append(judge_set(name, args.trials, args.realisations, seed))
            print(f"{name} (pilot seed {seed}): {time.perf_counter() - start:.0f} s", flush=True)
    pd.concat(frames).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
