"""Cost of `DawidSkene(channel=M, model="auto")` against one fit of the model it defaults to, in one process.

`model="auto"` refits each candidate model on `folds` held-out splits, then fits the chosen one: the issue's goal is
at most folds + 1 fits' time. Both are timed on the same randomized-response answers, interleaved, best of `--repeats`.
Run `python benchmarks/bench_auto.py` (writes benchmarks/results/bench_auto.md) or `--quick` (prints only).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from ldp_truth.data import datasets_available, load_dataset
from ldp_truth.inference import DawidSkene
from ldp_truth.mechanisms import RandomizedResponse
from ldp_truth.simulate import confusion_workers, random_confusions

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_auto.md"


def timed(fn) -> float:
    "Wall time of one call, in seconds."
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def cases(quick: bool) -> list:
    "(name, answers, ε): a synthetic set and, where present, real ones."
    W, T = (200, 5_000) if quick else (1000, 50_000)
    sim = confusion_workers(W, T, random_confusions(W, 3, rng=0), density=.01 if not quick else .02, rng=1).answers
    out = [(f"synthetic, {sim.n_answers:,} answers, K=3", sim, 1.0)]
    for name in ([] if quick else ["dog", "web", "adult_content"]):
        if datasets_available(name): out.append((name, load_dataset(name).answers, 1.0))
    return out


def bench(name: str, A, eps: float, repeats: int) -> dict:
    "Best-of-`repeats` seconds of one default channel fit and of model='auto', interleaved."
    mech = RandomizedResponse(eps, A.n_classes)
    M, noisy = mech.transition_matrix(), mech.privatize(A, rng=0)
    single, auto = [], []
    for _ in range(repeats):
        single.append(timed(lambda: DawidSkene(channel=M, model="full").fit(noisy)))
        fit = DawidSkene(channel=M, model="auto")
        auto.append(timed(lambda: fit.fit(noisy)))
    return {"case": name, "eps": eps, "single": min(single), "auto": min(auto), "chose": fit.model_,
            "folds": 3}


def markdown(rows: list) -> str:
    "The results as a Markdown table with its definitions."
    lines = ["| answers | ε | one fit (full, s) | model='auto' (s) | auto / one fit | goal: folds + 1 | chose |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['case']} | {r['eps']:g} | {r['single']:.3f} | {r['auto']:.3f} | "
                     f"{r['auto'] / r['single']:.1f}× | {r['folds'] + 1}× | {r['chose']} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="one small synthetic set (smoke test); prints only")
    p.add_argument("--repeats", type=int, default=3, help="interleaved repeats; the best time of each is kept")
    p.add_argument("--out", type=Path, default=None, help=f"Markdown output (default {DEFAULT_OUT.name} for a full run)")
    args = p.parse_args(argv)
    rows = [bench(*c, repeats=args.repeats) for c in cases(args.quick)]
    text = markdown(rows)
    print(text)
    out = args.out or (None if args.quick else DEFAULT_OUT)
    if out: out.write_text("# model='auto' against one fit\n\n" + __doc__.split("\n\n")[1] + "\n\n" + text)


if __name__ == "__main__":
    main()
