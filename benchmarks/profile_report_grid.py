"""Where `ldp-truth report`'s time goes: CPU seconds per aggregator × dataset for the report's sweep.

Each (dataset, aggregator) pair is swept alone over every mechanism of its kind at a few ε with one trial
(the full report runs 7 ε × 10 trials: multiply a row by 70/len(EPS) for its share of the full grid).
Run: `nice .venv/bin/python benchmarks/profile_report_grid.py` -> benchmarks/results/profile_report_grid.md
"""
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from ldp_truth import registry
from ldp_truth.experiments import sweep
from ldp_truth.report import (
    REPORT_EPSILONS, REPORT_TRIALS, markdown_table, report_datasets, report_grid,
)

EPS = (0.1, 1.0, 8.0)  # the ends and the middle of the report's ε grid
OUT = Path(__file__).parent / "results" / "profile_report_grid.md"


def profile() -> pd.DataFrame:
    "CPU and wall seconds of each (dataset, aggregator) sweep at EPS × 1 trial."
    datasets, _, _ = report_datasets()
    for kind in registry.KINDS:  # compile every kernel first: the first call's JIT is not a cell's cost
        d = min((d for d in datasets if d.answers.kind == kind and d.n_truth), key=lambda d: d.answers.n_answers)
        sweep({d.name: d}, *report_grid(kind), [1.0], trials=1, progress=False)
    rows = []
    for d in datasets:
        if not d.n_truth:
            continue
        mechs, aggs = report_grid(d.answers.kind)
        for a, make in aggs.items():
            c, w = time.process_time(), time.perf_counter()
            try:
                sweep({d.name: d}, mechs, {a: make}, list(EPS), trials=1, progress=False)
                note = ""
            except Exception as e:  # an aggregator that does not apply to this dataset
                note = type(e).__name__
            rows.append(
                dict(dataset=d.name, aggregator=a, cpu_s=time.process_time() - c,
                     wall_s=time.perf_counter() - w, note=note)
            )
            print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    df["full_grid_cpu_s"] = df.cpu_s * len(REPORT_EPSILONS) * REPORT_TRIALS / len(EPS)
    return df


if __name__ == "__main__":
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    df = profile()
    by_agg = df.pivot_table(index="aggregator", columns="dataset", values="cpu_s", aggfunc="sum")
    by_agg["total"] = by_agg.sum(axis=1)
    by_agg = by_agg.sort_values("total", ascending=False)
    OUT.write_text(
        f"# Report sweep profile: CPU s per aggregator × dataset\n\n"
        f"ε {EPS} × 1 trial × every mechanism of the kind; the full report runs "
        f"{len(REPORT_EPSILONS)} ε × {REPORT_TRIALS} trials (×{len(REPORT_EPSILONS) * REPORT_TRIALS / len(EPS):.1f}).\n"
        f"Load at start: `{load}`; at end: `{subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}`; "
        f"{os.cpu_count()} cores, python {sys.version.split()[0]}.\n\n"
        + markdown_table(by_agg, 2) + "\n\n"
        + f"Estimated full-grid CPU s: {df.full_grid_cpu_s.sum():.0f} "
        f"(measured share at these ε: {df.cpu_s.sum():.1f} s)\n\n"
        + markdown_table(df.set_index(['dataset', 'aggregator']), 3) + "\n"
    )
    print(OUT.read_text())
