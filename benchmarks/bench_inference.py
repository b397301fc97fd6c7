"""Speed and peak memory of ldp_truth's aggregators against crowd-kit 1.4.2, on identical synthetic data, in one process.

Run `python benchmarks/bench_inference.py` (full run, several minutes; writes benchmarks/results/bench_inference.md)
or `python benchmarks/bench_inference.py --quick` (one small size, a smoke test under 30 s; prints only unless --out).
"""
from __future__ import annotations

import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)   # crowd-kit on pandas 3 (Pandas4Warning is one)
warnings.filterwarnings("ignore", category=FutureWarning)

import argparse
import datetime as dt
import gc
import os
import platform
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import scipy

import crowdkit
import crowdkit.aggregation as ck

import ldp_truth
from ldp_truth import inference as ours
from ldp_truth.simulate import confusion_workers, random_confusions

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_inference.md"
SEED = 20240601

# (label, n_workers, n_tasks, density, K, iterations N): ~1 M and ~5 M answers
FULL_SIZES = [("1M", 1000, 100_000, 0.01, 2, 10),
              ("1M", 1000, 100_000, 0.01, 5, 10),
              ("5M", 1000, 500_000, 0.01, 5, 10)]
QUICK_SIZES = [("50k", 200, 5_000, 0.05, 2, 5),
               ("50k", 200, 5_000, 0.05, 5, 5)]


@dataclass
class Row:
    size: str
    n_answers: int
    K: int
    name: str
    n_iter: int                   # iterations of the timed fits (1 for majority vote)
    our_iter: int                 # iterations ours actually ran (tol=0 stops only on an exactly unchanged log-likelihood)
    ck_fit: float                 # crowd-kit fit(df) wall time, N iterations
    ck_fit1: float                # crowd-kit fit(df) wall time, 1 iteration (nan for MV)
    our_fit: float                # our fit_predict(df) wall time, N iterations (best of repeats)
    our_fit1: float               # ... 1 iteration (nan for MV)
    ck_peak: float                # MB, tracemalloc peak during fit
    our_peak: float
    agreement: float
    ck_acc: float
    our_acc: float
    extra: dict = field(default_factory=dict)

    def per_iter(self, fit, fit1, n=None):
        "(fit time)/n, and the marginal (T_n − T_1)/(n − 1) that drops the fixed setup cost (n = N unless given)."
        n = self.n_iter if n is None else n
        if n == 1 or not np.isfinite(fit1): return fit / n, float("nan")
        return fit / n, (fit - fit1) / (n - 1)


def timed(fn, repeats: int = 1):
    "Best wall time of `repeats` calls of fn() and the last result."
    best, out = float("inf"), None
    for _ in range(repeats):
        out = None
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def peak_mb(fn) -> float:
    "tracemalloc peak (MB) of the allocations made while fn() runs (numpy and pandas buffers are traced)."
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        res = fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del res
    return (peak - base) / 2**20


def ck_model(name: str, n_iter: int):
    if name == "MajorityVote": return ck.MajorityVote()
    cls = {"DawidSkene": ck.DawidSkene, "OneCoinDawidSkene": ck.OneCoinDawidSkene}[name]
    return cls(n_iter=n_iter, tol=-np.inf)      # crowd-kit stops when the ELBO gain < tol: -inf gives exactly n_iter


def our_model(name: str, n_iter: int):
    if name == "MajorityVote": return ours.MajorityVote()
    cls = {"DawidSkene": ours.DawidSkene, "OneCoinDawidSkene": ours.OneCoinDawidSkene}[name]
    return cls(n_iter=n_iter, tol=0)


def ck_fit(name, n_iter, df):
    m = ck_model(name, n_iter)
    if name == "MajorityVote": return m, m.fit_predict(df)
    m.fit(df)
    return m, m.labels_


def our_fit(name, n_iter, df):
    m = our_model(name, n_iter)
    return m, m.fit_predict(df)


def accuracy(labels: pd.Series, truth: np.ndarray) -> float:
    "Fraction of tasks whose label equals the truth (task ids are 0..T−1, the index into truth)."
    idx = labels.index.to_numpy().astype(np.int64)
    return float((labels.to_numpy().astype(np.int64) == truth[idx]).mean())


def bench_one(name, size, K, n_iter, df, truth, our_repeats, log) -> Row:
    N = 1 if name == "MajorityVote" else n_iter
    # crowd-kit: one timed run of N iterations, one of 1 iteration (no tracemalloc while timing)
    t_ck, (m_ck, lab_ck) = timed(lambda: ck_fit(name, N, df))
    if name != "MajorityVote": assert len(m_ck.loss_history_) == N, (name, len(m_ck.loss_history_))
    t_ck1 = timed(lambda: ck_fit(name, 1, df))[0] if N > 1 else float("nan")
    # ours: best of `our_repeats`, same for the 1-iteration run
    t_our, (m_our, lab_our) = timed(lambda: our_fit(name, N, df), our_repeats)
    n_done = getattr(m_our, "n_iter_", 1)
    if n_done != N: log(f"  note: ours stopped after {n_done} < {N} iterations (log-likelihood exactly unchanged)")
    t_our1 = timed(lambda: our_fit(name, 1, df), our_repeats)[0] if N > 1 else float("nan")
    # agreement by task id, accuracy vs truth
    common = lab_ck.index.intersection(lab_our.index)
    a_ck, a_our = lab_ck.reindex(common).to_numpy(), lab_our.reindex(common).to_numpy()
    agree = float((a_ck.astype(np.int64) == a_our.astype(np.int64)).mean())
    if len(common) != len(lab_ck) or len(common) != len(lab_our): log(f"  warning: task sets differ ({len(lab_ck)}, {len(lab_our)})")
    acc_ck, acc_our = accuracy(lab_ck, truth), accuracy(lab_our, truth)
    del m_ck, m_our, lab_ck, lab_our
    # peak memory, separate runs under tracemalloc
    mem_ck = peak_mb(lambda: ck_fit(name, N, df))
    mem_our = peak_mb(lambda: our_fit(name, N, df))
    row = Row(size, len(df), K, name, N, n_done, t_ck, t_ck1, t_our, t_our1, mem_ck, mem_our, agree, acc_ck, acc_our)
    ck_it, _ = row.per_iter(t_ck, t_ck1)
    _, our_m = row.per_iter(t_our, t_our1, n_done)
    log(f"  {name:18s} N={N:<3d} crowd-kit {t_ck:8.3f}s ({ck_it:.4f}s/it)  ours {t_our:7.3f}s (marginal {our_m:.5f}s/it)  "
        f"peak {mem_ck:8.1f} / {mem_our:7.1f} MB  agree {agree:.5f}")
    return row


CHANNEL_EPS = 1.0   # K-ary randomized response for the channel rows


def rr_channel(K: int, eps: float) -> np.ndarray:
    "K-ary randomized response as a K×K matrix P[x, z]."
    keep = np.exp(eps) / (np.exp(eps) + K - 1)
    return np.where(np.eye(K, dtype=bool), keep, (1 - keep) / (K - 1))


def channel_models(M):
    "The channel-aware fits timed against the previous default (full confusion, no shrinkage, fitted prior)."
    return {"DawidSkene(channel) previous default (full, shrink=0)": lambda n: ours.DawidSkene(n, tol=0, channel=M, model="full", shrink=0, class_prior="fit"),
            "DawidSkene(channel) default (full, shrink=4)": lambda n: ours.DawidSkene(n, tol=0, channel=M),
            "OneCoinDawidSkene(channel)": lambda n: ours.OneCoinDawidSkene(n, tol=0, channel=M)}


def bench_channel(size, K, n_iter, answers, repeats, log) -> list:
    "Marginal seconds per EM iteration, (T_N − T_1)/(N − 1), of each channel-aware fit on RR-perturbed answers."
    keep = np.exp(CHANNEL_EPS) / (np.exp(CHANNEL_EPS) + K - 1)
    g = np.random.default_rng(SEED)
    flip = g.random(answers.n_answers) >= keep
    noisy = answers.with_values(np.where(flip, (answers.value + g.integers(1, K, answers.n_answers)) % K, answers.value))
    rows = []
    for name, make in channel_models(rr_channel(K, CHANNEL_EPS)).items():
        tN = timed(lambda: make(n_iter).fit(noisy), repeats)[0]
        t1 = timed(lambda: make(1).fit(noisy), repeats)[0]
        rows.append((size, K, name, (tN - t1) / (n_iter - 1), t1))
        log(f"  {name:55s} marginal {(tN - t1) / (n_iter - 1):.5f} s/it, setup+1 it {t1:.3f} s")
    return rows


def channel_table(rows) -> list:
    "Markdown lines: marginal s/iter of each channel-aware fit and its ratio to the previous default on the same data."
    out = ["", f"Channel-aware fits (answers perturbed by K-ary randomized response at ε = {CHANNEL_EPS}), ours only:", "",
           "| size | K | aggregator | marginal s/iter | ratio to previous default | setup + 1 iteration s |", "|---|---|---|---|---|---|"]
    base = {(r[0], r[1]): r[3] for r in rows if "previous" in r[2]}
    out += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.5f} | {r[3] / base[r[0], r[1]]:.2f}× | {r[4]:.3f} |" for r in rows]
    return out


def fmt(x, spec):
    return "–" if x is None or (isinstance(x, float) and not np.isfinite(x)) else format(x, spec)


HEADER = ["size", "answers", "K", "aggregator", "N", "crowd-kit s/iter", "ours s/iter", "speed-up",
          "ours marginal s/iter", "speed-up (marginal)", "crowd-kit marginal s/iter", "ours setup s",
          "crowd-kit peak MB", "ours peak MB", "memory ratio", "agreement", "crowd-kit acc", "ours acc"]


def table_rows(rows):
    out = []
    for r in rows:
        ck_it, ck_m = r.per_iter(r.ck_fit, r.ck_fit1)
        our_it, our_m = r.per_iter(r.our_fit, r.our_fit1, r.our_iter)
        setup = r.our_fit1 - our_m if np.isfinite(our_m) else float("nan")
        n = str(r.n_iter) if r.our_iter == r.n_iter else f"{r.n_iter} (ours {r.our_iter})"
        out.append([r.size, f"{r.n_answers:,}", str(r.K), r.name, n,
                    fmt(ck_it, ".4f"), fmt(our_it, ".5f"), fmt(ck_it / our_it, ".1f") + "×",
                    fmt(our_m, ".5f"), (fmt(ck_it / our_m, ".1f") + "×") if np.isfinite(our_m) else "–",
                    fmt(ck_m, ".4f"), fmt(setup, ".3f"),
                    fmt(r.ck_peak, ".1f"), fmt(r.our_peak, ".1f"), fmt(r.ck_peak / r.our_peak, ".1f") + "×",
                    fmt(r.agreement, ".5f"), fmt(r.ck_acc, ".4f"), fmt(r.our_acc, ".4f")])
    return out


def machine_line() -> str:
    blas = os.environ.get("OPENBLAS_CORETYPE")
    return (f"Python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, scipy {scipy.__version__}, "
            f"crowd-kit {getattr(crowdkit, '__version__', '1.4.2')}, ldp_truth {getattr(ldp_truth, '__version__', '?')}; "
            f"{os.cpu_count()} cores, {platform.machine()} {platform.system()}"
            + (f", OPENBLAS_CORETYPE={blas}" if blas else ""))


DEFINITIONS = """\
Definitions:
- Data: `confusion_workers(W, T, random_confusions(W, K), density)` (seed {seed}); the same long DataFrame
  (`answers.to_frame()`, columns worker/task/label) goes to crowd-kit `fit(df)` (MajorityVote: `fit_predict(df)`)
  and to our `fit_predict(df)`. Both fits start from the DataFrame, so ours includes building `Answers` from it.
- N = fixed iteration count: ours `DawidSkene(n_iter=N, tol=0)` / `OneCoinDawidSkene(n_iter=N, tol=0)`,
  crowd-kit `DawidSkene(n_iter=N, tol=-np.inf)` (its default tol stops early). MajorityVote is one pass (N = 1).
  Our tol=0 still stops when the log-likelihood is exactly unchanged; "N (ours n)" marks such a row, and our
  per-iteration figures then use the n iterations actually run.
- **s/iter** = (fit wall time)/N, setup included, for both. crowd-kit is timed once; ours is the best of {reps}.
- **ours marginal s/iter** = (T_N − T_1)/(N − 1): the cost of one more EM iteration, our fixed setup
  (DataFrame → Answers, one-hot matrix, MV init) removed. **ours setup s** = T_1 − marginal.
  **speed-up (marginal)** = crowd-kit (fit/N) ÷ ours marginal; **crowd-kit marginal s/iter** is the same
  (T_N − T_1)/(N − 1) for crowd-kit, single runs, for reference.
- **peak MB** = `tracemalloc` peak during one fit of N iterations (separate, untimed run), for both.
- **agreement** = fraction of tasks where the two labels are equal (aligned by task id); acc = accuracy vs the simulated truth.
- Times by `time.perf_counter`; one process, crowd-kit and ours alternately on the same data.
"""


def markdown(rows, sizes, quick, reps, total_s, chan_rows=()) -> str:
    lines = [f"# ldp_truth vs crowd-kit: inference speed and memory{' (quick)' if quick else ''}", "",
             f"Date: {dt.datetime.now().isoformat(timespec='seconds')}  ",
             f"Machine: {machine_line()}  ",
             f"Command: `python benchmarks/bench_inference.py{' --quick' if quick else ''}` (total {total_s:.0f} s)", "",
             "Sizes: " + "; ".join(f"{s[0]} K={s[4]}: {s[1]} workers × {s[2]:,} tasks × density {s[3]}, N={s[5]}" for s in sizes),
             "", "| " + " | ".join(HEADER) + " |", "|" + "|".join("---" for _ in HEADER) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in table_rows(rows)]
    if chan_rows: lines += channel_table(chan_rows)
    lines += ["", DEFINITIONS.format(seed=SEED, reps=reps)]
    return "\n".join(lines)


def plain(rows) -> str:
    body = [HEADER] + table_rows(rows)
    w = [max(len(r[i]) for r in body) for i in range(len(HEADER))]
    return "\n".join("  ".join(c.rjust(w[i]) for i, c in enumerate(r)) for r in body)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="one small size only (smoke test, < 30 s); prints, writes only with --out")
    p.add_argument("--out", type=Path, default=None, help=f"Markdown output (default {DEFAULT_OUT.relative_to(HERE.parent)} for a full run)")
    p.add_argument("--repeats", type=int, default=3, help="repeats of our timed fits (best is kept)")
    p.add_argument("--only", nargs="*", default=None, help="aggregators to run (default all)")
    p.add_argument("--no-channel", action="store_true", help="skip the channel-aware rows")
    args = p.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    names = args.only or ["MajorityVote", "DawidSkene", "OneCoinDawidSkene"]
    log = lambda s: print(s, flush=True)
    log(machine_line())
    t_start, rows, chan_rows = time.perf_counter(), [], []
    for size, W, T, density, K, N in sizes:
        t0 = time.perf_counter()
        ds = confusion_workers(W, T, random_confusions(W, K, rng=SEED), density=density, rng=SEED + K)
        df, truth = ds.answers.to_frame(), np.asarray(ds.truth)
        log(f"{size} K={K}: {len(df):,} answers, {W} workers, {T:,} tasks (generated in {time.perf_counter() - t0:.1f}s)")
        for name in names:
            rows.append(bench_one(name, size, K, N, df, truth, args.repeats, log))
        if not args.no_channel: chan_rows += bench_channel(size, K, N, ds.answers, args.repeats, log)
        del ds, df
        gc.collect()
    total = time.perf_counter() - t_start
    log("")
    log(plain(rows))
    for line in channel_table(chan_rows) if chan_rows else []: log(line)
    log(f"\nours s/iter = fit/N; marginal = (T_N - T_1)/(N - 1); speed-up = crowd-kit fit/N ÷ ours. total {total:.0f} s")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(markdown(rows, sizes, args.quick, args.repeats, total, chan_rows))
        log(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(main())
