"""`model="auto"` choosing by estimated accuracy instead of held-out likelihood, on 03b's judging grid.

Per perturbation (every categorical set with truth × `experiments.JUDGED_EPS` × `--trials`, the seeds of
judge_hierarchy.py, so the rows pair with judge_auto.csv and judge_candidates.csv): each of the six candidates
(AUTO_CANDIDATES + HIERARCHY_MODELS) fitted alone through the channel, its accuracy on the truth tasks and its
`accuracy_estimate_` (the model's own expectation of its accuracy). Choosing by estimate is the argmax of the
estimates; 03i_confidence compares it with the held-out choice. Rows appended one cell at a time; --part i/n.
With `--bootstrap B` each model's `bootstrap_accuracy(fit, answers, B)` estimate is recorded too (`boot <model>`,
in judge_auto_bootstrap.csv); `--lost-only` judges only the 15 cells held-out likelihood lost before.

    nice python benchmarks/judge_auto_estimate.py --part 0/2 & nice python benchmarks/judge_auto_estimate.py --part 1/2
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from judge_hierarchy import LOST_BEFORE, judged_datasets
from ldp_truth.data import load_dataset
from ldp_truth.experiments import JUDGED_EPS, rr_perturbation
from ldp_truth.inference import AUTO_CANDIDATES, HIERARCHY_MODELS, DawidSkene, bootstrap_accuracy

OUT = Path(__file__).resolve().parent / "results" / "judge_auto_estimate.csv"
BOOT_OUT = OUT.with_name("judge_auto_bootstrap.csv")
SIX = AUTO_CANDIDATES + HIERARCHY_MODELS


def judge_cell(ds, name: str, eps: float, trials: range, B: int = 0) -> list:
    "One row per perturbation: each model's accuracy and estimated accuracy."
    t = np.isfinite(ds.truth)
    rows = []
    for trial in trials:
        M, P = rr_perturbation(ds.answers, name, eps, trial)
        row = dict(dataset=name, epsilon=eps, trial=trial)
        for m in SIX:
            fit = DawidSkene(channel=M, model=m).fit(P)
            row[m] = float((fit.labels_[t] == ds.truth[t]).mean())
            row[f"est {m}"] = fit.accuracy_estimate_
            if B:
                row[f"boot {m}"] = bootstrap_accuracy(fit, P, B=B, rng=trial).estimate
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", default="0/1")
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--bootstrap", type=int, default=0, help="B of bootstrap_accuracy (0: not run)")
    ap.add_argument("--lost-only", action="store_true", help="only the 15 cells lost before")
    args = ap.parse_args()
    out = BOOT_OUT if args.bootstrap else OUT
    i, n = map(int, args.part.split("/"))
    cells = LOST_BEFORE + [(d, e) for d in judged_datasets() for e in JUDGED_EPS if (d, e) not in LOST_BEFORE]
    cells = LOST_BEFORE if args.lost_only else cells
    for name, eps in cells[i::n]:
        if out.exists() and ((old := pd.read_csv(out)).dataset.eq(name) & old.epsilon.eq(eps)).any():
            continue
        start = time.perf_counter()
        rows = judge_cell(load_dataset(name), name, eps, range(args.trials), args.bootstrap)
        pd.DataFrame(rows).to_csv(out, mode="a", header=not out.exists(), index=False)
        print(f"{name} ε={eps}: {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
