"""Speed of ldp_truth's GLAD and MACE against crowd-kit 1.4.2's, in one process, interleaved.

Synthetic one-coin answers (K = 5 classes, ~10 answers per task, 10⁶ answers by default). crowd-kit's whole fits at
its defaults do not finish in a working session at 10⁶ answers (its MACE: 10 restarts × 50 iterations of pandas
group-bys; its GLAD: a melted frame of answers × classes per conjugate-gradient step), so both libraries run the
same short fit: GLAD with `n_iter` EM iterations (the same start, optimiser and steps), MACE with one restart of
`n_iter` iterations (crowd-kit's 10 restarts are one start repeated: its default costs 10× what is timed here).
The ratio is crowd-kit's time over ours for the same fit. Ours runs on each kernel path (NumPy reference, compiled);
the compiled kernels are loaded before timing (numba's cache). Both fits' labels are compared. BLAS runs on one
thread for both libraries (`OPENBLAS_NUM_THREADS=1` unless set): the conjugate gradient's vector operations are
small, and threaded BLAS spinning on a shared machine made each of them ~10× slower.

`--whole` times whole fits at crowd-kit's defaults instead. MACE: ours (one restart of 50 iterations) against
crowd-kit's `MACE(n_restarts=1)` (its default of 10 restarts repeats that one start: 10× the time, the same result).
GLAD: ours on each path in this process; crowd-kit's `GLAD(n_iter=1)` (one EM iteration, less than its whole fit)
in a subprocess with a timeout, at each size of `--ck-sizes`; where it times out, its whole fit takes longer than the
timeout, and the ratio is reported as the lower bound `> timeout / ours`. `--repeats R` runs our fit R times per
path, the paths interleaved, and reports the medians and the median of the paired ratios NumPy / compiled.

Run `python benchmarks/bench_glad_mace.py` (writes benchmarks/results/bench_glad_mace.md) or `--quick`
(10⁴ answers, prints only); `--whole` appends its section to the results file.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy: see the docstring
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from crowdkit.aggregation import GLAD as CrowdGLAD, MACE as CrowdMACE

from ldp_truth.data import Answers
from ldp_truth.inference import GLAD, MACE
from ldp_truth.kernels import set_kernel_path
from ldp_truth.simulate import one_coin

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_glad_mace.md"


def data(n_answers: int, K: int = 5):
    "Answers of a one-coin crowd: 10 answers per task, 200 workers (renamed for crowd-kit's MACE)."
    n_tasks, W = n_answers // 10, 200
    df = one_coin(
        W, n_tasks, np.linspace(0.35, 0.9, W), n_classes=K, density=10 / W, rng=0
    ).answers.to_frame()
    df = df.assign(
        worker=pd.factorize(df.worker)[0], label=pd.factorize(df.label)[0]
    )  # crowd-kit MACE's orders
    return Answers.from_frame(df)


def timed(f) -> tuple:
    "(seconds, result) of f()."
    t = time.perf_counter()
    out = f()
    return time.perf_counter() - t, out


def main(quick: bool, n_iter: int, out: Path, n: int, models: tuple = ("GLAD", "MACE")):
    n = 10_000 if quick else n
    A = data(n)
    df = A.to_frame()
    rows = []
    for path in ("numba", "numpy"):  # numba first: load (compile or read the cache) before timing
        set_kernel_path(path)
        GLAD(n_iter=1).fit(A), MACE(n_iter=1).fit(A)
    cases = [
        ("GLAD", lambda: CrowdGLAD(n_iter=n_iter).fit(df), lambda: GLAD(n_iter=n_iter).fit(A)),
        (
            "MACE",
            lambda: CrowdMACE(n_restarts=1, n_iter=n_iter).fit(df),
            lambda: MACE(n_iter=n_iter).fit(A),
        ),
    ]
    for name, theirs, ours in [c for c in cases if c[0] in models]:
        t_ck, ck = timed(theirs)  # interleaved: crowd-kit, ours (numpy), ours (numba)
        times = {}
        for path in ("numpy", "numba"):
            set_kernel_path(path)
            times[path], fit = timed(ours)
        set_kernel_path(None)
        agree = (
            pd.Series(A.classes[fit.labels_], A.tasks).reindex(ck.labels_.index) == ck.labels_
        ).mean()
        rows.append(
            dict(
                model=name,
                answers=A.n_answers,
                n_iter=n_iter,
                crowdkit_s=round(t_ck, 2),
                numpy_s=round(times["numpy"], 2),
                numba_s=round(times["numba"], 2),
                ratio_numpy=round(t_ck / times["numpy"], 1),
                ratio_numba=round(t_ck / times["numba"], 1),
                labels_equal=round(agree, 4),
            )
        )
        print(rows[-1], flush=True)
    table = "```\n" + pd.DataFrame(rows).to_string(index=False) + "\n```"
    print(table)
    if not quick:
        kept = out.read_text() if out.exists() else ""
        kept = kept[kept.find("\n## ") :] if "\n## " in kept else ""  # the --whole sections
        out.write_text(
            f"# GLAD and MACE against crowd-kit 1.4.2\n\n{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, "
            f"{platform.processor() or platform.machine()}, load average {os.getloadavg()[0]:.1f}, "
            f"`python benchmarks/bench_glad_mace.py --n-iter {n_iter} --answers {n} --models "
            f"{' '.join(models)}`\n\n{table}\n{kept}"
        )


CROWD_GLAD = """
import os, sys, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, {here!r})
from bench_glad_mace import data
from crowdkit.aggregation import GLAD
df = data({n}).to_frame()
t = time.perf_counter()
fit = GLAD({kwargs}).fit(df)
print(len(fit.loss_history_), time.perf_counter() - t)
"""


def crowd_glad(n: int, timeout: float, kwargs: str = "n_iter=1") -> tuple:
    "(iterations, seconds) of crowd-kit's GLAD(**kwargs) on `data(n)`, in a subprocess; None past `timeout`."
    code = CROWD_GLAD.format(here=str(HERE), n=n, kwargs=kwargs)
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=True
        )
    except subprocess.TimeoutExpired:
        return None, None
    iterations, seconds = out.stdout.split()[-2:]
    return int(iterations), float(seconds)


def load() -> str:
    "The 1-minute load average, for the notes beside each number."
    return f"{os.getloadavg()[0]:.1f}"


def whole(
    n: int, ck_sizes: tuple, timeout: float, models: tuple, ck_whole: bool, repeats: int = 1
) -> str:
    "Whole fits at crowd-kit's defaults (see the docstring): a Markdown section."
    A = data(n)
    df = A.to_frame()
    for path in ("numba", "numpy"):  # load the compiled kernels before timing
        set_kernel_path(path)
        GLAD(n_iter=1).fit(A), MACE(n_iter=1).fit(A)
    rows = []
    for name, ours, theirs in [
        ("MACE", lambda: MACE().fit(A), lambda: CrowdMACE(n_restarts=1).fit(df)),
        ("GLAD", lambda: GLAD().fit(A), None),
    ]:
        if name not in models:
            continue
        row = dict(model=name, answers=A.n_answers)
        if theirs is not None:
            row["load"], (row["crowdkit_s"], ck) = load(), timed(theirs)
        times: dict = {"numpy": [], "numba": []}
        for _ in range(repeats):  # interleaved: the shared machine's load moves between runs
            for path, seconds in times.items():
                set_kernel_path(path)
                row[f"load_{path}"], (t, fit) = load(), timed(ours)
                seconds.append(t)
        set_kernel_path(None)
        for path, seconds in times.items():
            row[f"{path}_s"] = float(np.median(seconds))
        row["numpy_over_numba"] = float(np.median(np.divide(times["numpy"], times["numba"])))
        row["n_iter"] = fit.n_iter_
        if theirs is not None:
            row["ratio_numpy"] = row["crowdkit_s"] / row["numpy_s"]
            row["ratio_numba"] = row["crowdkit_s"] / row["numba_s"]
            row["labels_equal"] = (
                pd.Series(A.classes[fit.labels_], A.tasks).reindex(ck.labels_.index) == ck.labels_
            ).mean()
        rows.append(row)
        print(row, flush=True)
    fmt = lambda r: pd.DataFrame(r).round(3).to_string(index=False)
    ck_rows = []
    runs = [(m, "n_iter=1") for m in ck_sizes] + ([(n, "")] if ck_whole else [])
    for m, kwargs in runs if "GLAD" in models else ():
        row = dict(answers=data(m).n_answers, fit=f"GLAD({kwargs})", timeout_s=timeout)
        row["load_before"] = load()
        row["iterations"], row["crowdkit_s"] = crowd_glad(m, timeout, kwargs)
        row["load_after"] = load()
        ck_rows.append(row)
        print(row, flush=True)
    glad = rows[-1]
    at_n = [r for r in ck_rows if r["answers"] == glad["answers"]]
    bound, ck_table = "", f"\n\ncrowd-kit's GLAD in a subprocess:\n\n```\n{fmt(ck_rows)}\n```"
    if at_n:
        t, one = at_n[-1]["crowdkit_s"], at_n[-1]["fit"] == "GLAD(n_iter=1)"
        sign = ">" if t is None else ("≥" if one else "=")  # one iteration ≤ its whole fit
        t = timeout if t is None else t
        bound = (
            f"\n\nGLAD at {glad['answers']} answers: crowd-kit's whole fit / ours {sign} "
            f"{t / glad['numpy_s']:.1f} (NumPy path), {sign} {t / glad['numba_s']:.1f} (compiled)"
            + (f": its {at_n[-1]['fit']} did not finish in {timeout:.0f} s" if sign == ">" else "")
        )
    return (
        f"\n## Whole fits at crowd-kit's defaults\n\n{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} "
        f"UTC, {platform.processor() or platform.machine()}, `python benchmarks/bench_glad_mace.py "
        f"--whole --models {' '.join(models)} --answers {n} --ck-sizes {' '.join(map(str, ck_sizes))} "
        f"--timeout {timeout:.0f}{' --ck-whole' if ck_whole else ''} --repeats {repeats}` (load: 1-minute "
        f"load average before the last timed fit; times: medians of {repeats} interleaved fits per path, "
        f"numpy_over_numba: the median of their pairwise ratios)\n\n"
        f"```\n{fmt(rows)}\n```{ck_table if ck_rows else ''}{bound}\n"
    )


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10⁴ answers, print only")
    p.add_argument("--n-iter", type=int, default=2, help="EM iterations of both fits")
    p.add_argument("--answers", type=int, default=1_000_000, help="answers (about) to fit")
    p.add_argument("--models", nargs="+", default=["GLAD", "MACE"], choices=["GLAD", "MACE"])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument("--whole", action="store_true", help="whole fits at crowd-kit's defaults")
    p.add_argument("--ck-sizes", nargs="+", type=int, default=[100_000, 200_000, 1_000_000])
    p.add_argument("--timeout", type=float, default=900.0, help="crowd-kit GLAD's seconds, each")
    p.add_argument("--ck-whole", action="store_true", help="also crowd-kit GLAD's whole fit")
    p.add_argument("--repeats", type=int, default=1, help="--whole: interleaved fits per path")
    a = p.parse_args()
    if a.whole:
        sizes = (10_000,) if a.quick else tuple(a.ck_sizes)
        section = whole(
            10_000 if a.quick else a.answers, sizes, a.timeout, tuple(a.models), a.ck_whole, a.repeats
        )
        print(section)
        if not a.quick:
            a.out.write_text(a.out.read_text() + section)
    else:
        main(a.quick, a.n_iter, a.out, a.answers, tuple(a.models))
