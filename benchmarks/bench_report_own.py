"""`ldp-truth report my_answers.csv [--truth my_truth.csv]` on 10⁵ answers: wall and CPU time of each form.

Writes a simulated file (500 one-coin workers of accuracy 0.7, 2,000 tasks, 3 classes, 10 % density: 100,288
answers) and its truth, then times the command with and without --truth, default grid and --quick, each in a child
process (`/usr/bin/time`-like: wall from this process, CPU from the child's rusage, workers included).
Run: `python benchmarks/bench_report_own.py` -> benchmarks/results/bench_report_own.md
"""
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from ldp_truth.report import markdown_table
from ldp_truth.simulate import one_coin

OUT = Path(__file__).parent / "results" / "bench_report_own.md"
FORMS = (["--truth", "truth.csv", "--quick"], ["--quick"], ["--truth", "truth.csv"], [])


def write_file(folder: Path) -> int:
    "The simulated answers.csv and truth.csv in `folder`; the number of answers."
    ds = one_coin(500, 2000, 0.7, n_classes=3, density=0.1, rng=0)
    ds.answers.to_csv(folder / "answers.csv")
    pd.DataFrame({"task": ds.answers.tasks, "truth": ds.truth.astype(int)}).to_csv(
        folder / "truth.csv", index=False
    )
    return ds.answers.n_answers


def timed(args: list, cwd: Path) -> tuple:
    "(wall s, CPU s of the child and its workers) of one `ldp-truth report` run."
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([Path(sys.executable).parent / "ldp-truth", "report", "answers.csv", *args,
                    "--out", "r", "--no-progress"], cwd=cwd, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return time.perf_counter() - t, cpu


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        n = write_file(Path(d))
        load = os.getloadavg()[0]
        rows = [(" ".join(a) or "(default grid, no truth)", *timed(a, Path(d))) for a in FORMS]
    table = pd.DataFrame(rows, columns=["options", "wall s", "CPU s"])
    OUT.write_text(
        f"# `ldp-truth report answers.csv` on {n:,} answers\n\nLoad {load:.1f} at the start "
        f"({os.cpu_count()} cores).\n\n{markdown_table(table, 1)}\n"
    )
    print(OUT.read_text())
