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

Run `python benchmarks/bench_glad_mace.py` (writes benchmarks/results/bench_glad_mace.md) or `--quick`
(10⁴ answers, prints only).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import time
from pathlib import Path

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
        out.write_text(
            f"# GLAD and MACE against crowd-kit 1.4.2\n\n{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, "
            f"{platform.processor() or platform.machine()}, load average {os.getloadavg()[0]:.1f}, "
            f"`python benchmarks/bench_glad_mace.py --n-iter {n_iter} --answers {n} --models "
            f"{' '.join(models)}`\n\n{table}\n"
        )


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10⁴ answers, print only")
    p.add_argument("--n-iter", type=int, default=2, help="EM iterations of both fits")
    p.add_argument("--answers", type=int, default=1_000_000, help="answers (about) to fit")
    p.add_argument("--models", nargs="+", default=["GLAD", "MACE"], choices=["GLAD", "MACE"])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = p.parse_args()
    main(a.quick, a.n_iter, a.out, a.answers, tuple(a.models))
