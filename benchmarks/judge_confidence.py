"""The labels' estimated accuracy and calibration against the truth, on 03b's judging grid (03i_confidence reads it).

Every real categorical dataset with ground truth × ε ∈ {0.5, 1, 2, 4, ∞} × `--trials` perturbations by K-ary
randomized response (`experiments.rr_perturbation`, the seeds of 03b's table; ε = ∞: the answers as collected,
fitted once per cell). Per perturbation, Dawid–Skene through the channel (plain Dawid–Skene at ε = ∞) and, on the
tasks with a truth: the true accuracy; the estimate without gold (`accuracy_estimate`, the posterior expectation,
= the mean of the largest `proba_` when the labels are the argmax) and its 90 % interval; `--gold` random gold tasks
(at most a quarter of the truth tasks, drawn per perturbation): the gold-corrected estimate and interval, the
gold tasks' own share right with its Wilson interval, the temperature learnt on them and the ECE on the other truth
tasks before and after it, and the ECE a perfectly calibrated proba_ would show on those tasks (truths drawn from
the tempered proba_ itself: the noise floor). Rows are appended one cell at a time; a re-run skips the cells already there.

    nice python benchmarks/judge_confidence.py --part 0/2 & nice python benchmarks/judge_confidence.py --part 1/2
"""

from __future__ import annotations

import argparse
import time
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from ldp_truth.data import list_datasets, load_dataset
from ldp_truth.experiments import rr_perturbation
from ldp_truth.inference import (DawidSkene, accuracy_estimate, expected_calibration_error,
                                 fit_temperature, temper)

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "judge_confidence.csv"
GRID_EPS = (0.5, 1.0, 2.0, 4.0, np.inf)
Z90 = 1.6448536269514722


def judged_datasets() -> list:
    "The categorical datasets with some ground truth, sorted (03b's JUDGED)."
    keep = lambda ds: ds.answers.kind == "categorical" and np.isfinite(ds.truth).any()
    return sorted(n for n in list_datasets() if keep(load_dataset(n)))


def wilson(right: float, n: int, z: float = Z90) -> tuple:
    "Wilson's score interval of a share `right` out of n."
    c = (right + z * z / (2 * n)) / (1 + z * z / n)
    h = z / (1 + z * z / n) * np.sqrt(right * (1 - right) / n + z * z / (4 * n * n))
    return c - h, c + h


def gold_sample(truth: np.ndarray, t: np.ndarray, n_gold: int, name: str, eps: float, trial: int):
    "`n_gold` random truth tasks as gold (class per task, NaN elsewhere), seeded per perturbation."
    rng = np.random.default_rng([48, zlib.crc32(name.encode()), int(min(eps, 1e4) * 100), trial])
    pick = rng.choice(np.flatnonzero(t), n_gold, replace=False)
    gold = np.full(len(truth), np.nan)
    gold[pick] = truth[pick]
    return gold


def judge_fit(fit, truth: np.ndarray, gold: np.ndarray) -> dict:
    "The estimates of one fit against the truth on the truth tasks (gold: its own tasks)."
    t = np.isfinite(truth) & (fit.labels_ >= 0)
    P, L = fit.proba_[t], fit.labels_[t]
    g = gold[t]
    est, (lo, hi) = accuracy_estimate(P, L)
    gest, (glo, ghi) = accuracy_estimate(P, L, g)
    G = np.isfinite(g)
    right = float((L[G] == g[G]).mean())
    wlo, whi = wilson(right, G.sum())
    T = fit_temperature(P, g)
    calibrated = temper(P, T)
    cest, (clo, chi) = accuracy_estimate(calibrated, L, g)
    rest = np.where(G, np.nan, truth[t])
    return dict(
        tasks=int(t.sum()), gold=int(G.sum()), accuracy=float((L == truth[t]).mean()),
        naive=float(np.nanmax(P, 1).mean()), estimate=est, lo=lo, hi=hi,
        gold_estimate=gest, gold_lo=glo, gold_hi=ghi, gold_only=right, wilson_lo=wlo, wilson_hi=whi,
        temperature=T, calibrated_estimate=cest, calibrated_lo=clo, calibrated_hi=chi,
        ece=expected_calibration_error(P, rest), ece_calibrated=expected_calibration_error(calibrated, rest),
        ece_floor=ece_floor(calibrated, rest),
    )


def ece_floor(P: np.ndarray, rest: np.ndarray, draws: int = 20) -> float:
    "Mean ECE of `P` against truths drawn from `P` itself on the same tasks: a calibrated proba_'s ECE."
    rng, keep = np.random.default_rng(0), np.isfinite(rest)
    out = []
    for _ in range(draws):
        drawn = (P[keep].cumsum(1) < rng.random(keep.sum())[:, None]).sum(1)
        out.append(expected_calibration_error(P[keep], np.minimum(drawn, P.shape[1] - 1)))
    return float(np.mean(out))


def judge_cell(ds, name: str, eps: float, trials: range, n_gold: int) -> list:
    "One row per perturbation of a cell."
    truth = ds.truth
    n_gold = min(n_gold, int(np.isfinite(truth).sum()) // 4)
    plain = DawidSkene().fit(ds.answers) if np.isinf(eps) else None
    rows = []
    for trial in trials:
        if plain is None:
            M, P = rr_perturbation(ds.answers, name, eps, trial)
            fit = DawidSkene(channel=M).fit(P)
        else:
            fit = plain
        gold = gold_sample(truth, np.isfinite(truth) & (fit.labels_ >= 0), n_gold, name, eps, trial)
        rows.append(dict(dataset=name, epsilon=eps, trial=trial, **judge_fit(fit, truth, gold)))
    return rows


def grid_parser(doc: str, out: Path) -> argparse.ArgumentParser:
    "The grid scripts' arguments: --out, --part i/n, --trials."
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--out", type=Path, default=out)
    ap.add_argument("--part", default="0/1", help="i/n: every n-th cell from the i-th")
    ap.add_argument("--trials", type=int, default=20)
    return ap


def main():
    ap = grid_parser(__doc__, DEFAULT_OUT)
    ap.add_argument("--gold", type=int, default=30, help="gold tasks per perturbation (≤ a quarter of the truth)")
    args = ap.parse_args()
    run_grid(args.out, args.part,
             lambda name, eps: judge_cell(load_dataset(name), name, eps, range(args.trials), args.gold))


def run_grid(out: Path, part: str, judge) -> None:
    "Append `judge(name, ε)`'s rows to `out` for every grid cell of `part` (i/n) not already there."
    i, n = map(int, part.split("/"))
    for name, eps in [(d, e) for d in judged_datasets() for e in GRID_EPS][i::n]:
        if out.exists() and ((old := pd.read_csv(out)).dataset.eq(name) & old.epsilon.eq(eps)).any():
            continue
        start = time.perf_counter()
        pd.DataFrame(judge(name, eps)).to_csv(out, mode="a", header=not out.exists(), index=False)
        print(f"{name} ε={eps}: {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
