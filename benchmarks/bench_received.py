"""False alarms and detection of `privacy.check_received`, the received-data audit.

Binary randomized response at ε = 1 per answer; workers right with probability U(0.7, 1) (`simulate.one_coin`),
about 10 answers per task, 10³, 10⁴ and 10⁵ answers. Pages: *honest* (every answer privatized as the spec says),
*raw* (the flip returns its input), *10x epsilon* (privatized at ε = 10 under the ε = 1 spec), *20% of workers
raw* (one worker in five unprivatized). Each trial is a fresh seeded data set; the alarm rate is the share of
trials in which `check_received(..., alpha)` alarms. The false-alarm rate is bounded by α under any honest input
(union bound over four binomial-tail tests); this measures how far below α it stays and what the tests catch.
Run `python benchmarks/bench_received.py` (writes benchmarks/results/bench_received.md) or `--quick`.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ldp_truth.data import Answers
from ldp_truth.mechanisms import RandomizedResponse
from ldp_truth.privacy import check_received
from ldp_truth.simulate import one_coin

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_received.md"
PAGES = ("honest", "raw", "10x epsilon", "20% of workers raw")


def scenario(n_answers: int, page: str, rng) -> Answers:
    "About n_answers binary answers of workers right w.p. U(0.7, 1), as `page` sends them."
    g = np.random.default_rng(rng)
    n_workers, n_tasks = max(n_answers // 50, 20), max(n_answers // 10, 10)
    density = min(1.0, n_answers / (n_workers * n_tasks))
    raw = one_coin(n_workers, n_tasks, g.uniform(0.7, 1.0, n_workers), density=density, rng=g).answers
    if page == "raw":
        return raw
    out = RandomizedResponse(10.0 if page == "10x epsilon" else 1.0, 2).privatize(raw, rng=g)
    if page == "20% of workers raw":
        rawers = g.random(raw.n_workers) < 0.2
        out = out.with_values(np.where(rawers[raw.worker], raw.value, out.value))
    return out


def rates(sizes, honest_trials: dict, trials: int, alpha: float) -> pd.DataFrame:
    "Alarm rate per page and size (and the trials behind each)."
    P = RandomizedResponse(1.0, 2).transition_matrix()
    rows = []
    for n in sizes:
        for page in PAGES:
            k = honest_trials[n] if page == "honest" else trials
            alarms = [check_received(scenario(n, page, 7919 * s + n), P, alpha)["alarm"] for s in range(k)]
            rows.append((n, page, k, float(np.mean(alarms))))
    return pd.DataFrame(rows, columns=["answers", "page", "trials", "alarm_rate"])


def markdown(df: pd.DataFrame) -> str:
    "A pipe table of `df` with its index (no tabulate needed)."
    head = [str(df.index.name or "")] + [str(c) for c in df.columns]
    rows = [[str(i)] + [f"{v:g}" for v in r] for i, r in zip(df.index, df.to_numpy())]
    lines = [head, ["---"] * len(head)] + rows
    return "\n".join("| " + " | ".join(r) + " |" for r in lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer trials, print only")
    ap.add_argument("-o", "--output", default=str(DEFAULT_OUT))
    args = ap.parse_args()
    sizes = (10**3, 10**4, 10**5)
    honest = {10**3: 100, 10**4: 100, 10**5: 20} if args.quick else {10**3: 1000, 10**4: 1000, 10**5: 200}
    t0, load = time.perf_counter(), os.getloadavg()
    table = rates(sizes, honest, 10 if args.quick else 100, 0.01)
    wide = table.pivot(index="page", columns="answers", values="alarm_rate").loc[list(PAGES)]
    trials = table.pivot(index="page", columns="answers", values="trials").loc[list(PAGES)]
    text = (
        "# check_received: false alarms and detection (α = 0.01)\n\n"
        f"Load average at start {load[0]:.2f} (2 cores shared); {time.perf_counter() - t0:.0f} s in all.\n"
        "Binary RR at ε = 1, workers right w.p. U(0.7, 1), ~10 answers per task.\n\n"
        "Alarm rate (share of trials that alarm):\n\n" + markdown(wide) + "\n\nTrials:\n\n"
        + markdown(trials) + "\n"
    )
    print(text)
    if not args.quick:
        Path(args.output).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
