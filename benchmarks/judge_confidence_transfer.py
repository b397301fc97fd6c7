"""A gold-free overconfidence correction tried and not shipped: a temperature learnt on the other datasets.

For each dataset × ε ∈ {0.5, 1, 2, 4, ∞} × 4 perturbations (RR seeds of 03b; ε = ∞ once), Dawid–Skene through the
channel, the temperature that fits its truth tasks best (`fit_temperature` with every truth as gold); then each
cell is corrected by the median temperature of the *other* datasets at its ε (leave one dataset out: no gold of
its own). Writes per perturbation: true accuracy, naive estimate, corrected estimate, both ECEs. 03i reads it.

    nice python benchmarks/judge_confidence_transfer.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from judge_confidence import GRID_EPS, judged_datasets
from ldp_truth.data import load_dataset
from ldp_truth.experiments import rr_perturbation
from ldp_truth.inference import DawidSkene, expected_calibration_error, fit_temperature, temper

OUT = Path(__file__).resolve().parent / "results" / "judge_confidence_transfer.csv"


def fits() -> pd.DataFrame:
    "One row per perturbation: the truth tasks' proba_, labels, truth and their own best temperature."
    rows = []
    for name in judged_datasets():
        ds = load_dataset(name)
        for eps in GRID_EPS:
            for trial in range(4 if np.isfinite(eps) else 1):
                if np.isfinite(eps):
                    M, P = rr_perturbation(ds.answers, name, eps, trial)
                    fit = DawidSkene(channel=M).fit(P)
                else:
                    fit = DawidSkene().fit(ds.answers)
                t = np.isfinite(ds.truth) & (fit.labels_ >= 0)
                proba, truth = fit.proba_[t], ds.truth[t]
                rows.append(dict(dataset=name, epsilon=eps, trial=trial, proba=proba, truth=truth,
                                 accuracy=(fit.labels_[t] == truth).mean(), T=fit_temperature(proba, truth)))
    return pd.DataFrame(rows)


def main():
    df, out = fits(), []
    for _, r in df.iterrows():
        others = df[(df.dataset != r.dataset) & (df.epsilon == r.epsilon)]
        T = float(np.exp(np.log(others["T"]).median()))
        Pt = temper(r.proba, T)
        out.append(dict(dataset=r.dataset, epsilon=r.epsilon, trial=r.trial, accuracy=r.accuracy,
                        naive=r.proba.max(1).mean(), transferred=Pt.max(1).mean(), temperature=T,
                        own_temperature=r["T"], ece=expected_calibration_error(r.proba, r.truth),
                        ece_transferred=expected_calibration_error(Pt, r.truth)))
    pd.DataFrame(out).to_csv(OUT, index=False)


if __name__ == "__main__":
    main()
