"""`partial_fit` (incremental EM) of small batches against full refits, in one process: seconds, memory, labels.

Run `python benchmarks/bench_partial_fit.py` (10⁷ answers, 1 % batches, a few minutes on 2 cores; writes
benchmarks/results/bench_partial_fit.md), `--quick` (10⁵ answers, prints only), `--answers N`, `--share S`.
The answers are bench_scale's simulated Dawid–Skene answers (K = 5, 10 answers per task, 1 000 workers). Two kinds
of batch: `random answers` (a random `share` of all answers: each lands on a task seen before, so a 1 % batch touches
about 10 % of the tasks and their answers) and `new tasks` (all the answers of a random `share` of the tasks: crowd
work published task by task). The model is fitted by partial_fit on all answers but `rounds` batches (untimed);
then, for each batch in turn: `partial_fit(batch)` timed, then `DawidSkene().fit(all answers so far)` timed (the
two interleaved), after one untimed batch (the compiled kernels loaded); `append_s` is the answer store's part of
that partial_fit (ids, duplicates, the touched tasks' answers found, the batch written).
`--profile`: cProfile of one random-answers batch at `--answers` (where its time goes), printed only.
Memory: the tracemalloc peak of one partial_fit and one refit, per answer; and over many batches (`--memory-answers`,
half the answers first, then 1 % batches to the end, refits included by the 10 % rule) the largest peak of a batch
and the bytes the model holds, per answer.
"""
from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import os
import pstats
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_scale import markdown, simulate_frame   # noqa: E402

from ldp_truth.data import Answers                  # noqa: E402
from ldp_truth.inference import DawidSkene          # noqa: E402
from ldp_truth.kernels import describe_kernels      # noqa: E402

DEFAULT_OUT = HERE / "results" / "bench_partial_fit.md"


def split(df: pd.DataFrame, kind: str, share: float, rounds: int, seed: int = 0) -> tuple:
    "The answers so far and `rounds` batches of `share` (random answers, or the answers of new tasks)."
    rng = np.random.default_rng(seed)
    unit = df.task.to_numpy() if kind == "new tasks" else np.arange(len(df))
    key = rng.random(unit.max() + 1)[unit]  # one draw per task (new tasks) or per answer
    cut = np.quantile(key, 1 - share * np.arange(rounds + 1))[::-1]
    cut[-1] = np.inf
    classes = np.sort(df.label.unique())
    part = lambda m: Answers.from_frame(df[m], classes=classes)
    return part(key < cut[0]), [part((key >= lo) & (key < hi)) for lo, hi in zip(cut[:-1], cut[1:])]


def peak(f) -> tuple:
    "f()'s result and the peak bytes NumPy allocated while it ran (tracemalloc)."
    tracemalloc.start()
    try:
        out = f()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def timed(f) -> tuple:
    "f()'s result and its seconds."
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def held(model: DawidSkene) -> int:
    "Bytes a partial_fit model holds: its answer arrays (with their spare room), state and fitted arrays."
    S, E = model._store, model._em
    arrays = [S.worker, S.task, S.value, S.per_task, S.workers.buf, S.tasks.buf, E.N, E.P, E.labels]
    fitted = [v for k, v in vars(model).items() if isinstance(v, np.ndarray) and k not in ("proba_", "labels_")]
    return sum(a.nbytes for a in arrays + fitted)


def timing(store) -> list:
    "A list that gets the seconds of each later `store.append`."
    log, append = [], store.append

    def timed_append(*args):
        out, seconds = timed(lambda: append(*args))
        log.append(seconds)
        return out

    store.append = timed_append
    return log


def measure(df: pd.DataFrame, kind: str, share: float, rounds: int) -> list:
    "Seconds of partial_fit and of a refit after each of `rounds` batches, the append alone, peaks, labels."
    so_far, parts = split(df, kind, share, rounds + 1)
    model, rows = DawidSkene().partial_fit(so_far).partial_fit(parts[0]), []  # untimed: kernels loaded
    appends = timing(model._store)
    for b in parts[1:]:
        before = len(model.answers_)
        _, warm = timed(lambda: model.partial_fit(b))
        touched = model._store.per_task[model._store.tasks.find(b.tasks)].sum()
        refit, cold = timed(lambda: DawidSkene().fit(model.answers_))
        rows.append(dict(batch=kind, answers=len(model.answers_), batch_answers=len(model.answers_) - before,
                         touched_share=touched / len(model.answers_), partial_fit_s=warm, refit_s=cold,
                         append_s=appends[-1], ratio=warm / cold, iterations=f"{model.n_iter_} / {refit.n_iter_}",
                         labels_as_refit=(model.labels_ == refit.labels_).mean(), load=os.getloadavg()[0]))
    tight = DawidSkene(n_iter=1000, tol=1e-10).fit(model.answers_)
    rows[-1]["labels_as_tight_refit"] = (model.labels_ == tight.labels_).mean()
    rows[-1]["tight_converged"] = tight.converged_
    return rows


def peaks(df: pd.DataFrame, share: float) -> dict:
    "Peak bytes per answer of one partial_fit of a random batch and of one refit (tracemalloc)."
    so_far, (b,) = split(df, "random answers", share, 1, seed=1)
    model = DawidSkene().partial_fit(so_far)
    _, warm = peak(lambda: model.partial_fit(b))
    _, cold = peak(lambda: DawidSkene().fit(model.answers_))
    n = len(model.answers_)
    return {"partial_fit peak B/answer": warm / n, "refit peak B/answer": cold / n}


def many_batches(n_answers: int, share: float) -> pd.DataFrame:
    "Half the answers, then batches of `share` to the end: each batch's peak and the model's bytes, per answer."
    df = simulate_frame(n_answers, 1_000)
    n_batches = round(0.5 / share)
    so_far, parts = split(df, "random answers", share, n_batches, seed=2)
    model, rows = DawidSkene().partial_fit(so_far), []
    for i, b in enumerate(parts):
        _, p = peak(lambda: model.partial_fit(b))
        n = len(model.answers_)
        rows.append(dict(batch=i + 1, answers=n, refit=model.refit_answers_ == n, peak_B_per_answer=p / n,
                         held_B_per_answer=held(model) / n))
    once = DawidSkene().partial_fit(model.answers_)
    rows.append(dict(batch="one partial_fit of all", answers=len(once.answers_), refit=True,
                     peak_B_per_answer=np.nan, held_B_per_answer=held(once) / len(once.answers_)))
    return pd.DataFrame(rows)


def profile(df: pd.DataFrame, share: float, top: int = 30) -> str:
    "cProfile of one random-answers `partial_fit` (after two untimed batches): the `top` calls by cumulative time."
    so_far, parts = split(df, "random answers", share, 3, seed=3)
    model = fed(DawidSkene(), [so_far, *parts[:2]])
    prof = cProfile.Profile()
    prof.runcall(model.partial_fit, parts[2])
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def fed(model: DawidSkene, parts: list) -> DawidSkene:
    "`model` after partial_fit on each batch in turn."
    for b in parts:
        model.partial_fit(b)
    return model


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10⁵ answers, prints only")
    p.add_argument("--answers", type=int, default=10_000_000)
    p.add_argument("--memory-answers", type=int, default=2_000_000)
    p.add_argument("--share", type=float, default=0.01)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--profile", action="store_true", help="cProfile of one random-answers batch, printed only")
    a = p.parse_args(argv)
    n, n_memory = (100_000, 100_000) if a.quick else (a.answers, a.memory_answers)
    if a.profile:
        load = f"load {os.getloadavg()[0]:.1f}"
        print(f"{load}\n{profile(simulate_frame(n, 1_000), a.share)}{load} → {os.getloadavg()[0]:.1f}")
        return
    out = a.out or (None if a.quick else DEFAULT_OUT)
    before = f"{os.getloadavg()[0]:.1f}"
    df = simulate_frame(n, 1_000)
    table = pd.DataFrame([r for kind in ("random answers", "new tasks") for r in measure(df, kind, a.share, a.rounds)])
    mem = peaks(df, a.share)
    del df
    batches = many_batches(n_memory, a.share)
    shown = batches[(batches.index % 10 == 9) | batches.refit | (batches.index >= len(batches) - 2)]
    stamp = f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC"
    text = (f"# bench_partial_fit ({os.cpu_count()} cores; {stamp}; load {before}→{os.getloadavg()[0]:.1f})\n\n"
            f"Batches of {a.share:.0%} added to {n:,} answers (K = 5, 1 000 workers), {describe_kernels(n)}. "
            "Each row one batch, in turn: `partial_fit` timed, then a refit `DawidSkene().fit` on the same answers "
            "timed; `ratio` = partial_fit / refit; `append_s` the answer store's part alone; `touched_share` the "
            "share of all answers held by the tasks the batch touches (what the incremental E-steps read); "
            "`iterations` incremental / refit; `labels_as_refit` share of labels equal to that refit's; "
            "`labels_as_tight_refit` (last batch) to `DawidSkene(n_iter=1000, tol=1e-10)`; `load` the 1-minute "
            f"load average after the row.\n\n{markdown(table.fillna(''))}\n\n"
            f"Peak bytes NumPy allocated (tracemalloc), per answer: "
            + ", ".join(f"{k} {v:.1f}" for k, v in mem.items())
            + f".\n\nMemory over {len(batches) - 1} batches of {a.share:.0%} after half of {n_memory:,} answers "
            "(every 10th batch, the refits and the last; `held` = the model's answer arrays with their spare room, "
            f"state and fitted arrays):\n\n{markdown(shown)}\n")
    print(text)
    if out:
        out.write_text(text)


if __name__ == "__main__":
    main()
