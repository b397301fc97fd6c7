"""The judging grid of 03b for the models between one shared worker and one model per worker.

Every real categorical dataset with ground truth × ε ∈ JUDGED_EPS × `--trials` perturbations by K-ary randomized
response, seeded per cell by `experiments.perturbation_seed` (the seeds of 03b's table: the MV and DS columns are
its). Per perturbation: majority vote, plain Dawid–Skene, `DawidSkene(channel=M, model=m)` for each model in
`--models`, and with `--auto` the held-out choice among all of MODELS (its accuracy and choice). Rows are appended
to `--out` (CSV) one cell at a time, so a partial run is usable and a re-run skips the cells already there.
Cells run in the order given by `--first` (the cells that lost before), then the rest; `--part i/n` takes every
n-th cell (run n processes). Read the table with `experiments.gains` / `verdict` (03h_hierarchy shows it).

    python benchmarks/judge_hierarchy.py --part 0/2 &  python benchmarks/judge_hierarchy.py --part 1/2
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ldp_truth.data import list_datasets, load_dataset
from ldp_truth.experiments import JUDGED_EPS, rr_perturbation
from ldp_truth.inference import HIERARCHY_MODELS, DawidSkene, MajorityVote
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


def judge_cell(ds, name: str, eps: float, trials: int, models: list, auto: bool) -> list:
    "One row per perturbation of a cell: accuracies of the baselines and of each model."
    rows = []
    for t in range(trials):
        M, P = rr_perturbation(ds.answers, name, eps, t)
        score = lambda agg: accuracy(agg.fit(P).labels_, ds.truth)
        row = dict(dataset=name, epsilon=eps, trial=t, MV=score(MajorityVote()), DS=score(DawidSkene()))
        for m in models:
            row[m] = score(DawidSkene(channel=M, model=m))
        if auto:
            start = time.perf_counter()
            fit = DawidSkene(channel=M, model="auto").fit(P)
            row.update(auto=accuracy(fit.labels_, ds.truth), chose=fit.model_)
            row["auto seconds"] = time.perf_counter() - start
        rows.append(row)
    return rows


def done_cells(out: Path) -> set:
    "The (dataset, ε) cells already in the CSV."
    if not out.exists():
        return set()
    old = pd.read_csv(out)
    return set(zip(old.dataset, old.epsilon))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--part", default="0/1", help="i/n: every n-th cell from the i-th")
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--models", nargs="+", default=list(HIERARCHY_MODELS))
    ap.add_argument("--auto", action="store_true", help="also model='auto' (all MODELS as candidates)")
    ap.add_argument("--only-lost", action="store_true", help="only the cells that lost before")
    ap.add_argument("--reverse", action="store_true", help="last cell first (a second process)")
    args = ap.parse_args()
    i, n = map(int, args.part.split("/"))
    cells = LOST_BEFORE + [
        (d, e) for d in judged_datasets() for e in JUDGED_EPS if (d, e) not in LOST_BEFORE
    ]
    cells = (LOST_BEFORE if args.only_lost else cells)[i::n]
    for name, eps in cells[::-1] if args.reverse else cells:
        if (name, eps) in done_cells(args.out):  # read again: another process may have run it
            continue
        start = time.perf_counter()
        rows = judge_cell(load_dataset(name), name, eps, args.trials, args.models, args.auto)
        df = pd.DataFrame(rows)
        df.to_csv(args.out, mode="a", header=not args.out.exists(), index=False)
        print(f"{name} ε={eps}: {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
