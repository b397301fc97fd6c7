"""`next_tasks` (ldp-truth next) against uniform buying, with `partial_fit`: accuracy gained per answer bought.

Per dataset × ε ∈ {1, 4} × `--trials` RR perturbations (03b's seeds) of every answer: each task starts with
`--start` of its (privatized) answers in a random order, then `--rounds` rounds buy `--budget` × tasks answers in
all, the next answer of each chosen task (a task whose answers are all bought is not chosen). Uniform: the tasks
with the fewest answers bought, ties at random; next: `next_tasks` on the current `proba_` (least confident first).
After each round `partial_fit` with the batch. The row: accuracy on the truth tasks at the start and at the end
under each rule, and the ratio of the gains. 03i_confidence reads the CSV.

    nice python benchmarks/judge_next.py
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from ldp_truth.data import Answers, load_dataset
from ldp_truth.experiments import rr_perturbation
from ldp_truth.inference import DawidSkene, next_tasks

OUT = Path(__file__).resolve().parent / "results" / "judge_next.csv"
SETS = ("dog", "duck", "face", "temp", "web", "sp")  # ≥ 5.5 answers per task: room to buy


def queue(P: Answers, rng) -> tuple:
    "Each answer's place in its task's random order, and the tasks' answer counts."
    counts = np.bincount(P.task, minlength=P.n_tasks)
    order = np.lexsort((rng.random(P.n_answers), P.task))
    rank = np.empty(P.n_answers, np.int64)
    rank[order] = np.arange(P.n_answers) - np.repeat(np.cumsum(counts) - counts, counts)
    return rank, counts


def batch(P: Answers, keep: np.ndarray) -> Answers:
    "The answers where `keep`, with the collection's ids (for partial_fit)."
    return Answers(P.worker[keep], P.task[keep], P.value[keep], workers=P.workers, tasks=P.tasks,
                   n_classes=P.n_classes)


def buy(P, M, truth, rank, counts, start, rule, per_round, rounds, rng) -> tuple:
    "Start accuracy and end accuracy under `rule` ('uniform' or 'next')."
    t = np.isfinite(truth)
    have = np.minimum(counts, start)
    fit = DawidSkene(channel=M).partial_fit(batch(P, rank < start))
    first = (fit.labels_[t] == truth[t]).mean()
    for _ in range(rounds):
        room = np.flatnonzero(have < counts)
        if rule == "uniform":
            pick = room[np.lexsort((rng.random(len(room)), have[room]))][:per_round]
        else:
            pick = room[next_tasks(fit.proba_[room], min(per_round, len(room)))]
        bought = np.zeros(P.n_tasks, bool)
        bought[pick] = True
        fit.partial_fit(batch(P, bought[P.task] & (rank == have[P.task])))
        have[pick] += 1
    return first, (fit.labels_[t] == truth[t]).mean()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--start", type=int, default=2)
    ap.add_argument("--budget", type=float, default=1.0, help="answers bought per task, on average")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    rows = []
    for name in SETS:
        ds = load_dataset(name)
        for eps in (1.0, 4.0):
            for trial in range(args.trials):
                M, P = rr_perturbation(ds.answers, name, eps, trial)
                rng = np.random.default_rng([48, trial])
                rank, counts = queue(P, rng)
                per_round = int(round(args.budget * P.n_tasks / args.rounds))
                row = dict(dataset=name, epsilon=eps, trial=trial, bought=per_round * args.rounds)
                for rule in ("uniform", "next"):
                    row["start"], row[rule] = buy(P, M, ds.truth, rank, counts, args.start, rule,
                                                  per_round, args.rounds, rng)
                rows.append(row)
                print(row, flush=True)
    df = pd.DataFrame(rows)
    df["ratio"] = (df["next"] - df.start) / (df.uniform - df.start)
    df.to_csv(OUT, index=False)


if __name__ == "__main__":
    main()
