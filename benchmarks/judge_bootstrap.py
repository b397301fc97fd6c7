"""`bootstrap_accuracy` on 03b's judging grid: the parametric-bootstrap estimate beside the naive one (03i reads it).

Every real categorical dataset with ground truth × ε ∈ {0.5, 1, 2, 4, ∞} × `--trials` perturbations by K-ary
randomized response (`experiments.rr_perturbation`, the seeds of `judge_confidence.py`; ε = ∞: the answers as
collected). Per perturbation, Dawid–Skene through the channel and `bootstrap_accuracy(fit, answers, B=--B)`, judged on
the tasks with a truth: the true accuracy; the naive estimate (the mean largest `proba_` there) with the model's
own interval; the bootstrap estimate (that naive estimate minus the simulated optimism) with its interval; the ECE of
`proba_` and of `proba_` tempered by the bootstrap's temperature (no gold used); the bootstrap's time over one fit's.
Rows are appended one cell at a time; a re-run skips the cells already there.

    nice python benchmarks/judge_bootstrap.py
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from judge_confidence import grid_parser, run_grid
from ldp_truth.data import load_dataset
from ldp_truth.experiments import rr_perturbation
from ldp_truth.inference import (DawidSkene, accuracy_estimate, bootstrap_accuracy, expected_calibration_error,
                                 temper)

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "judge_bootstrap.csv"


def judge_perturbation(A, truth: np.ndarray, M, B: int, seed: int) -> dict:
    "One perturbation: fit, bootstrap, and both estimates against the truth tasks."
    start = time.perf_counter()
    fit = DawidSkene(channel=M).fit(A)
    fitted = time.perf_counter()
    res = bootstrap_accuracy(fit, A, B=B, rng=seed)
    booted = time.perf_counter()
    t = np.isfinite(truth) & (fit.labels_ >= 0)
    P, L = fit.proba_[t], fit.labels_[t]
    naive, (lo, hi) = accuracy_estimate(P, L)
    shift = naive - res.naive  # the truth tasks' naive estimate against all answered tasks'
    return dict(
        tasks=int(t.sum()), accuracy=float((L == truth[t]).mean()), naive=naive, lo=lo, hi=hi,
        naive_all=res.naive, optimism=res.optimism, estimate=res.estimate + shift,
        boot_lo=res.interval[0] + shift, boot_hi=res.interval[1] + shift, temperature=res.temperature,
        ece=expected_calibration_error(P, truth[t]),
        ece_boot=expected_calibration_error(temper(P, res.temperature), truth[t]),
        cost_ratio=(booted - fitted) / (fitted - start),
    )


def judge_cell(name: str, eps: float, trials: int, B: int) -> list:
    "One row per perturbation of a cell."
    ds, rows = load_dataset(name), []
    for trial in range(trials):
        M, A = (None, ds.answers) if np.isinf(eps) else rr_perturbation(ds.answers, name, eps, trial)
        rows.append(dict(dataset=name, epsilon=eps, trial=trial, **judge_perturbation(A, ds.truth, M, B, trial)))
    return rows


def main():
    ap = grid_parser(__doc__, DEFAULT_OUT)
    ap.add_argument("--B", type=int, default=10, help="simulated collections per perturbation")
    args = ap.parse_args()
    run_grid(args.out, args.part, lambda name, eps: judge_cell(name, eps, args.trials, args.B))


if __name__ == "__main__":
    main()
