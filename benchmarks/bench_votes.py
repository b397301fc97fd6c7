"""KOS, MMSR, Wawa and ZeroBasedSkill against crowd-kit 1.4.2: seconds for a whole fit (DataFrame in, labels out) at
10⁶ answers, in one process, ours on the NumPy path and on the compiled (numba) path, crowd-kit between them.

Run `python benchmarks/bench_votes.py` (about 15 minutes on 2 busy cores; writes benchmarks/results/bench_votes.md)
or `--quick` (10⁵ answers, prints only). Data: K = 5 classes for Wawa and ZBS (1 000 workers, 10 answers per task,
Dawid–Skene workers), K = 2 for KOS and MMSR (100 workers who all answer 10⁴ tasks: crowd-kit's MMSR builds a dense
workers × tasks matrix and loops over all pairs of workers, so it cannot run with many workers). Each fit's labels are
checked against crowd-kit's before it is timed (MMSR with vote="shares", crowd-kit's rule).
"""
from __future__ import annotations

import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)   # crowd-kit on pandas 3
warnings.filterwarnings("ignore", category=FutureWarning)
warnings.filterwarnings("ignore", category=RuntimeWarning)       # crowd-kit's MMSR divides by zero

import argparse
import datetime as dt
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_scale import markdown, simulate_frame   # noqa: E402

import crowdkit.aggregation as ck   # noqa: E402

from ldp_truth import kernels                                       # noqa: E402
from ldp_truth.inference import KOS, MMSR, Wawa, ZeroBasedSkill    # noqa: E402
from ldp_truth.simulate import one_coin                             # noqa: E402

DEFAULT_OUT = HERE / "results" / "bench_votes.md"


def binary_frame(n_answers: int, n_workers: int = 100, seed: int = 3) -> pd.DataFrame:
    "Binary one-coin answers (skills 0.55–0.95), every worker on every task, as a long DataFrame."
    sim = one_coin(n_workers, n_answers // n_workers, np.linspace(0.55, 0.95, n_workers), rng=seed)
    A = sim.answers
    return pd.DataFrame({"worker": A.worker, "task": A.task, "label": A.value})


def ours(cls, path: str, **kw):
    "A fit_predict of our `cls(**kw)` on the kernels of `path`."
    def fit(df):
        kernels.set_kernel_path(path)
        try: return cls(**kw).fit_predict(df)
        finally: kernels.set_kernel_path(None)
    return fit


def timed(fit, df) -> tuple:
    "(seconds, labels) of one call."
    t = time.perf_counter(); out = fit(df); return time.perf_counter() - t, out


def same_labels(a: pd.Series, b: pd.Series) -> float:
    "Share of tasks with equal labels."
    return float((a.astype(int) == b.reindex(a.index).astype(int)).mean())


def compare(name: str, df: pd.DataFrame, ck_fit, our_kw: dict, cls, rounds: int) -> dict:
    "Interleaved: NumPy path, numba path, crowd-kit (once: its fits take minutes), NumPy, numba, ..."
    fits = {"numpy": ours(cls, "numpy", **our_kw), "numba": ours(cls, "numba", **our_kw)}
    fits["numba"](df.sample(min(len(df), 20_000), random_state=0))   # compile (or load) the kernels
    best, ck_seconds, agree = {}, None, {}
    for r in range(rounds):
        for path, fit in fits.items():
            s, labels = timed(fit, df)
            best[path] = min(best.get(path, np.inf), s)
            if r == 0 and ck_seconds is None and path == "numpy":
                ck_seconds, reference = timed(ck_fit, df)
            agree[path] = same_labels(labels, reference)
    return {
        "aggregator": name,
        "answers": len(df),
        "crowd-kit s": round(ck_seconds, 2),
        "ours NumPy s": round(best["numpy"], 3),
        "ours numba s": round(best["numba"], 3),
        "speed-up NumPy": round(ck_seconds / best["numpy"], 1),
        "speed-up numba": round(ck_seconds / best["numba"], 1),
        "labels as crowd-kit": min(agree.values()),
        "load": f"{os.getloadavg()[0]:.1f}",
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="10⁵ answers, print only")
    p.add_argument("--answers", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=3, help="timed fits of ours per path")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args()
    n = 100_000 if args.quick else args.answers
    k5, k2 = simulate_frame(n, 1000), binary_frame(n)
    rows = [
        compare("Wawa", k5, lambda df: ck.Wawa().fit_predict(df), {}, Wawa, args.rounds),
        compare("ZeroBasedSkill", k5, lambda df: ck.ZeroBasedSkill().fit_predict(df), {}, ZeroBasedSkill,
                args.rounds),
        compare("KOS", k2, lambda df: ck.KOS().fit_predict(df), {}, KOS, args.rounds),
        compare("MMSR", k2, lambda df: ck.MMSR().fit_predict(df), {"vote": "shares"}, MMSR, args.rounds),
    ]
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    if args.quick:
        return
    text = "\n".join([
        "# Agreement-weighted votes, KOS and MMSR against crowd-kit 1.4.2",
        "",
        f"`python benchmarks/bench_votes.py` on {dt.date.today()}, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores (shared: the load column is the 1-minute load average after each row). A whole "
        "`fit_predict(df)` at crowd-kit's defaults, DataFrame in, labels out; ours the best of "
        f"{args.rounds} on each path, crowd-kit once (between our first two fits), labels checked equal.",
        "",
        markdown(table),
        "",
        "Wawa and ZBS: K = 5, 1 000 workers, 10 answers per task. KOS and MMSR: K = 2, 100 workers answering every "
        "task (crowd-kit's MMSR needs a dense workers × tasks matrix and a loop over all pairs of workers).",
        "",
    ])
    args.out.write_text(text)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
