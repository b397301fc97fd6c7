"""`ldp-truth report`'s cache on the default grid: a cold run, a repeat, an interrupted run and its resume.

Each run is `ldp-truth report` in a child process (`--out` and `--cache` in a temporary folder, the default grid
on every dataset found), timed by wall clock and by the child's CPU (user + sys, `resource.getrusage`):

1. `--no-cache`: the report as it ran before the cache (the reference for the cache's own cost);
2. cold: a new cache folder, every fit computed and written;
3. repeat: the same command again, nothing changed: every fit read back;
4. interrupted: a new cache folder, SIGINT (Ctrl-C) after half the cold run's wall time;
5. resume: the same command again: the fits the interrupted run finished are read back, the rest computed.

It counts the fits: the cell files and the fits in them, in each cache folder before and after a run. The
resumed report's `sweep.csv` and the cold run's must agree value for value (timing columns aside), and both with the
`--no-cache` run's. It also checks the progress bar's cost model: per sweep cell, the predicted cost (the seconds
the same aggregators took on the same dataset without privacy, `results.csv`) against the measured one
(`sweep.csv`'s fit and privatize seconds): how far the bar, weighted by prediction, runs ahead of or behind the time
actually spent, if the cells ran one after another costliest first.

Run: `nice .venv/bin/python benchmarks/bench_report_cache.py` -> benchmarks/results/bench_report_cache.md
"""
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).parent / "results" / "bench_report_cache.md"
LDP_TRUTH = str(Path(sys.executable).with_name("ldp-truth"))
TIMING = ["seconds", "privatize_seconds"]


def load() -> str:
    "The machine's load averages now."
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def report(out: Path, cache, stop_after: float = None) -> dict:
    "Run the default report into `out` (cache folder or None); SIGINT after `stop_after` s if given."
    args = [LDP_TRUTH, "report", "--out", str(out), "--no-progress"]
    args += ["--no-cache"] if cache is None else ["--cache", str(cache)]
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    at_start = load()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out_text, err_text = child.communicate(timeout=stop_after)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGINT)
        out_text, err_text = child.communicate()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    row = dict(wall_s=round(wall, 1), cpu_s=round(cpu, 1), status=child.returncode,
               load_start=at_start, load_end=load())
    return {**row, **(stages(out) if child.returncode == 0 else {})}


def stages(out: Path) -> dict:
    "The report's own Run time table (seconds per stage), from its report.md."
    text = (out / "report.md").read_text().split("## Run time", 1)[1]
    rows = [line.strip("| ").split(" | ") for line in text.splitlines() if line.startswith("| ")]
    return {f"{name} s": float(v) for name, v in rows[1:]}


def cached_fits(folder: Path) -> tuple:
    "(cell files, fits) in a cache folder."
    from ldp_truth.experiments import SweepCache

    files = list(folder.glob("*/*.npz"))
    cache = SweepCache(folder)
    return len(files), sum(len(cache.load(p.stem)) for p in files)


def markdown(table: pd.DataFrame) -> str:
    "A DataFrame as a Markdown table, its index as the first column."
    cols = [table.index.name or "", *table.columns]
    lines = ["| " + " | ".join(map(str, cols)) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(map(str, [i, *r])) + " |" for i, r in zip(table.index, table.values)]
    return "\n".join(lines)


def same_values(a: Path, b: Path) -> str:
    "Whether two reports' sweep.csv agree, timing columns aside (a description of the first difference)."
    x, y = (pd.read_csv(p / "sweep.csv").drop(columns=TIMING) for p in (a, b))
    try:
        pd.testing.assert_frame_equal(x, y)
        return f"identical ({len(x)} rows)"
    except AssertionError as e:
        return f"DIFFER: {str(e).splitlines()[0]}"


def honesty(run: Path) -> dict:
    "How far a bar weighted by predicted cost strays from the time spent (cells serial, costliest first)."
    sweep = pd.read_csv(run / "sweep.csv")
    clean = pd.read_csv(run / "results.csv").set_index(["dataset", "aggregator"]).seconds
    sweep["predicted"] = [clean[d, a] for d, a in zip(sweep.dataset, sweep.aggregator)]
    cells = sweep.groupby(["dataset", "mechanism", "epsilon", "trial"]).agg(
        predicted=("predicted", "sum"), fits=("seconds", "sum"), privatize=("privatize_seconds", "first"))
    cells["actual"] = cells.fits + cells.privatize
    cells = cells.sort_values("predicted", ascending=False)
    bar = (cells.predicted.cumsum() / cells.predicted.sum()).to_numpy()
    spent = (cells.actual.cumsum() / cells.actual.sum()).to_numpy()
    half = int(np.searchsorted(bar, 0.5))
    in_order = cells.sort_index()  # the plan's order, as the chunked bar ran, counting cells
    counted = np.arange(1, len(cells) + 1) / len(cells)
    spent_in_order = (in_order.actual.cumsum() / in_order.actual.sum()).to_numpy()
    by_agg = sweep.groupby("aggregator").agg(predicted=("predicted", "sum"), actual=("seconds", "sum"))
    ratio = (by_agg.actual / by_agg.predicted).sort_values()
    return dict(
        cells=len(cells),
        corr_log=round(float(np.corrcoef(np.log(cells.predicted), np.log(cells.actual))[0, 1]), 3),
        max_gap=round(float(np.abs(bar - spent).max()), 3),
        max_gap_counting=round(float(np.abs(counted - spent_in_order).max()), 3),
        time_at_bar_half=round(float(spent[half]), 3),
        ratio_range=f"{ratio.index[0]} {ratio.iloc[0]:.2f} … {ratio.index[-1]} {ratio.iloc[-1]:.2f}",
    )


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench_report_cache."))
    rows = {}
    rows["no cache"] = report(tmp / "plain", None)
    print(rows["no cache"], flush=True)
    rows["cold (new cache)"] = report(tmp / "cold", tmp / "cold.cache")
    print(rows["cold (new cache)"], flush=True)
    rows["repeat (nothing changed)"] = report(tmp / "cold", tmp / "cold.cache")
    print(rows["repeat (nothing changed)"], flush=True)
    half = rows["cold (new cache)"]["wall_s"] / 2
    rows[f"interrupted (SIGINT at {half:.0f} s)"] = report(tmp / "stop", tmp / "stop.cache", half)
    files, fits = cached_fits(tmp / "stop.cache")
    rows["resume"] = report(tmp / "stop", tmp / "stop.cache")
    print(rows["resume"], flush=True)
    resumed_files, resumed_fits = cached_fits(tmp / "stop.cache")
    cold_files, cold_fits = cached_fits(tmp / "cold.cache")
    table = pd.DataFrame(rows).T.rename_axis("run")
    checks = {
        "fits in the cold cache (files)": f"{cold_fits} ({cold_files})",
        "fits the interrupted run left (files)": f"{fits} ({files})",
        "fits the resume added (files)": f"{resumed_fits - fits} ({resumed_files - files})",
        "resumed vs cold sweep.csv": same_values(tmp / "stop", tmp / "cold"),
        "cold vs --no-cache sweep.csv": same_values(tmp / "cold", tmp / "plain"),
        "cache folder size": subprocess.run(["du", "-sh", str(tmp / "cold.cache")],
                                            capture_output=True, text=True).stdout.split()[0],
    }
    fair = honesty(tmp / "plain")
    OUT.write_text(
        "# The report's cache: cold, repeated, interrupted and resumed (default grid)\n\n"
        f"`ldp-truth report` (default grid, every dataset in `$LDP_TRUTH_DATA`), 2 cores shared with other "
        f"jobs: load averages (1, 5, 15 min) at each run's start and end are in the table.\n\n"
        + markdown(table) + "\n\n"
        + "\n".join(f"- {k}: {v}" for k, v in checks.items()) + "\n\n"
        "## The progress bar's cost model (the `--no-cache` run)\n\n"
        "Predicted cost of a cell: the seconds its aggregators took on its dataset without privacy. "
        f"{fair['cells']} sweep cells; correlation of log predicted and log measured cell time "
        f"{fair['corr_log']}; the largest gap between the bar (predicted share done) and the time share "
        f"spent, cells serial and costliest first: {fair['max_gap']} (a bar counting cells in the plan's "
        f"order, as before: {fair['max_gap_counting']}); when the bar shows 50 %, "
        f"{fair['time_at_bar_half']:.0%} of the time is spent. Measured / predicted seconds per "
        f"aggregator: {fair['ratio_range']}.\n"
    )
    print(OUT.read_text())


if __name__ == "__main__":
    main()
