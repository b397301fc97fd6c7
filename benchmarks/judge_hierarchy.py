"""The judging grid of 03b for the models between one shared worker and one model per worker.

Every real categorical dataset with ground truth × ε ∈ JUDGED_EPS × `--trials` perturbations by K-ary randomized
response, seeded per cell by `experiments.perturbation_seed` (the seeds of 03b's table: the MV and DS columns are
its). Per perturbation: majority vote, plain Dawid–Skene, `DawidSkene(channel=M, model=m)` for each model in
`--models`, and with `--auto` the held-out scores of `model="auto"` with the candidates it names, once with
cold folds (each fold's EM from majority vote, as `auto` runs by default) and once with `warm_folds=True`: per fold
mode (`--modes`) and model its mean held-out log-likelihood per answer ("cold <model>", "warm <model>"), the SE of its gap to
the best ("se cold <model>", ...), and the seconds of `auto`'s fit. `auto`'s choice among any subset of the models
is the subset's best held-out mean, and its accuracy that model's column (`auto` is its chosen model fitted alone).
Rows are appended to `--out` (CSV) one cell at a time, so a partial run is usable and a re-run skips the cells
already there. The cells that lost before (LOST_BEFORE) run first, then the rest; `--part i/n` takes
every n-th cell (run n processes). Read the table with `experiments.gains` / `verdict` (03h_hierarchy shows
it).

    python benchmarks/judge_hierarchy.py --part 0/2 &  python benchmarks/judge_hierarchy.py --part 1/2
    python benchmarks/judge_hierarchy.py --models --auto --trials 5 --out benchmarks/results/judge_auto.csv

`results/judge_hierarchy_vb.csv` is the hierarchical and community models after their EM became variational (03h):
`--models hierarchical community --trials 2` then `--trials 3 --first-trial 2`, two `--part`s each (5 perturbations
per cell, 16:29-16:45 UTC at load 8-10), the parts concatenated and sorted by dataset, ε, trial.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ldp_truth.data import list_datasets, load_dataset
from ldp_truth.experiments import JUDGED_EPS, rr_perturbation
from ldp_truth.inference import AUTO_CANDIDATES, HIERARCHY_MODELS, DawidSkene, MajorityVote
from ldp_truth.metrics import accuracy

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "judge_hierarchy.csv"
LOST_BEFORE = [  # the 15 cells where auto was worse than the better baseline (03b's saved table)
    ("adult_content", 2.0), ("adult_content", 4.0), ("barzan", 0.25), ("barzan", 0.5), ("dog", 4.0),
    ("duchenne", 4.0), ("duck", 1.0), ("duck", 2.0), ("duck", 4.0), ("face", 0.25), ("face", 0.5),
    ("face", 1.0), ("sp", 4.0), ("temp", 0.25), ("weather", 4.0),
]


def judged_datasets() -> list:
    "The categorical datasets with some ground truth, sorted (03b's JUDGED)."
    keep = lambda ds: ds.answers.kind == "categorical" and np.isfinite(ds.truth).any()
    return sorted(n for n in list_datasets() if keep(load_dataset(n)))


def judge_cell(
    ds, name: str, eps: float, trials: range, models: list, candidates: list, modes: list
) -> list:
    "One row per perturbation of a cell: accuracies of the baselines and each model, held-out scores."
    rows = []
    for t in trials:
        M, P = rr_perturbation(ds.answers, name, eps, t)
        score = lambda agg: accuracy(agg.fit(P).labels_, ds.truth)
        row = dict(dataset=name, epsilon=eps, trial=t, MV=score(MajorityVote()), DS=score(DawidSkene()))
        for m in models:
            row[m] = score(DawidSkene(channel=M, model=m))
        for mode in modes if candidates else ():
            row.update(heldout_scores(P, M, candidates, mode))
        rows.append(row)
    return rows


def heldout_scores(P, M, models: list, mode: str) -> dict:
    "model='auto' with `models` as candidates, folds `mode` ('cold' or 'warm'): held-out means, SEs."
    start = time.perf_counter()
    fit = DawidSkene(channel=M, model="auto", candidates=models, warm_folds=mode == "warm").fit(P)
    row = {f"{mode} seconds": time.perf_counter() - start}
    row.update({f"{mode} {m}": v for m, v in fit.selection_.items()})
    row.update({f"se {mode} {m}": v for m, v in fit.selection_se_.items()})
    return row


def done_trials(out: Path) -> set:
    "The (dataset, ε, trial) perturbations already in the CSV."
    if not out.exists():
        return set()
    old = pd.read_csv(out)
    return set(zip(old.dataset, old.epsilon, old.trial))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--part", default="0/1", help="i/n: every n-th cell from the i-th")
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--first-trial", type=int, default=0, help="trials first-trial … first-trial + trials − 1")
    ap.add_argument("--models", nargs="*", default=list(AUTO_CANDIDATES + HIERARCHY_MODELS))
    ap.add_argument(
        "--auto", nargs="*", metavar="CANDIDATE", default=None,
        help="also model='auto''s held-out scores with these candidates (none named: all six)",
    )
    ap.add_argument("--modes", nargs="+", default=["cold", "warm"], help="auto's folds: cold, warm")
    ap.add_argument("--only-lost", action="store_true", help="only the cells that lost before")
    ap.add_argument("--reverse", action="store_true", help="last cell first (a second process)")
    args = ap.parse_args()
    i, n = map(int, args.part.split("/"))
    cells = LOST_BEFORE + [
        (d, e) for d in judged_datasets() for e in JUDGED_EPS if (d, e) not in LOST_BEFORE
    ]
    cells = (LOST_BEFORE if args.only_lost else cells)[i::n]
    trials = range(args.first_trial, args.first_trial + args.trials)
    candidates = None if args.auto is None else args.auto or list(AUTO_CANDIDATES + HIERARCHY_MODELS)
    for name, eps in cells[::-1] if args.reverse else cells:
        if {(name, eps, t) for t in trials} <= done_trials(args.out):  # another process may have run it
            continue
        start = time.perf_counter()
        rows = judge_cell(load_dataset(name), name, eps, trials, args.models, candidates, args.modes)
        df = pd.DataFrame(rows)
        df.to_csv(args.out, mode="a", header=not args.out.exists(), index=False)
        print(f"{name} ε={eps}: {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
