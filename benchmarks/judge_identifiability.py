"""What no estimate from the answers alone can know: each perturbation of the judging grid and its twin.

For every perturbation of 03i's grid (13 categorical sets × ε ∈ {0.5, 1, 2, 4, ∞} × `--trials` K-ary randomized
response draws, `experiments.rr_perturbation`'s seeds; ε = ∞ once), Dawid–Skene through the channel. The *twin*
of a perturbation has the same answers and the same truth except on the truth tasks where the fit is at least
`--sure` certain of a label the truth contradicts: there the twin's truth is that label. Anything computed from the
answers (an accuracy estimate, a calibrated `proba_`) is the same number for both, while their accuracies differ by
`twin_gap`, the share of such tasks; so an estimate is off by at least twin_gap / 2 on one of the two, and a
calibration's ECE is at least twin_gap / 2 on one of them. `twin_answers_gain` is the answers' log-likelihood under
the fitted model, twin's truth minus the real one, summed over those tasks (positive: the twin's truth explains the
answers better). 03i_confidence reads the CSV.

    nice python benchmarks/judge_identifiability.py
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from judge_confidence import GRID_EPS, judged_datasets
from ldp_truth.data import load_dataset
from ldp_truth.experiments import rr_perturbation
from ldp_truth.inference import DawidSkene

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "judge_identifiability.csv"
TINY = 1e-300  # a posterior that underflowed to 0 counts as this (its log is finite)


def twin(fit, truth: np.ndarray, sure: float) -> dict:
    "The truth tasks' accuracy, naive estimate, and the twin's gap and answers' log-likelihood gain."
    t = np.flatnonzero(np.isfinite(truth))
    P, real = fit.proba_[t], truth[t].astype(np.int64)
    label = P.argmax(1)
    flip = (label != real) & (P.max(1) >= sure)
    rows = np.flatnonzero(flip)
    post = np.log(np.maximum(P[rows, label[rows]], TINY)) - np.log(np.maximum(P[rows, real[rows]], TINY))
    prior = np.log(fit.prior_[label[rows]]) - np.log(fit.prior_[real[rows]])
    return dict(tasks=len(t), accuracy=float((label == real).mean()), naive=float(P.max(1).mean()),
                twin_gap=float(flip.mean()), twin_answers_gain=float((post - prior).sum()),
                twin_tasks_favoured=float((post - prior > 0).mean()) if len(rows) else np.nan)


def judge_set(name: str, trials: int, sure: float) -> list:
    "One row per perturbation of one dataset."
    ds = load_dataset(name)
    A, rows = ds.answers, []
    for eps in GRID_EPS:
        for trial in range(1 if np.isinf(eps) else trials):
            M, P = (np.eye(A.n_classes), A) if np.isinf(eps) else rr_perturbation(A, name, eps, trial)
            fit = DawidSkene(channel=M).fit(P)
            rows.append(dict(dataset=name, epsilon=eps, trial=trial, **twin(fit, ds.truth, sure)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--sure", type=float, default=0.99, help="the fit's certainty that makes a twin")
    args = ap.parse_args()
    rows = [r for name in judged_datasets() for r in judge_set(name, args.trials, args.sure)]
    pd.DataFrame(rows).to_csv(args.out, index=False)
    print(f"{len(rows)} perturbations → {args.out}")


if __name__ == "__main__":
    main()
