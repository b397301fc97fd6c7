"""Cost of `DawidSkene(channel=M, model="auto")` against one fit of the model it defaults to.

`model="auto"` fits the four candidate models on each of `folds` held-out splits in one shared EM
loop (one sparse product per E-step and one per M-step for all of them), then fits the chosen one:
the goal is at most folds + 1 fits' time. Beside it, `warm_folds=True` (the candidates fitted on
all answers in one shared loop first, each fold's EM started from its candidate's posteriors), and
the same held-out scores from separate fits (each candidate alone on each fold, as `auto` did before
the shared loop) and the final fit. All four are timed on the same randomized-response answers, in one process, interleaved, best of
`--repeats`. Run `python benchmarks/bench_auto.py` (writes benchmarks/results/bench_auto.md) or
`--quick` (prints only).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from ldp_truth.data import datasets_available, load_dataset
from ldp_truth.inference import AUTO_CANDIDATES, EPS, DawidSkene
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
    confusions = random_confusions(W, 3, rng=0)
    sim = confusion_workers(W, T, confusions, density=0.02 if quick else 0.01, rng=1).answers
    out = [(f"synthetic, {sim.n_answers:,} answers, K=3", sim, 1.0)]
    for name in [] if quick else ["dog", "web", "adult_content"]:
        if datasets_available(name):
            out.append((name, load_dataset(name).answers, 1.0))
    return out


def separate(A, M: np.ndarray, folds: int = 3) -> str:
    "model='auto' by separate fits: each candidate alone on each fold, then the chosen one's fit."
    fold = np.random.default_rng(0).permutation(A.n_answers) % folds
    scores = dict.fromkeys(AUTO_CANDIDATES, 0.0)
    for f in range(folds):
        train, test = A.select(fold != f), A.select(fold == f)
        for m in scores:
            fit = DawidSkene(channel=M, model=m).fit(train)
            P = np.where(np.isnan(fit.proba_), fit.prior_, fit.proba_)
            O = fit.observed_confusion_[test.worker, :, test.value]
            like = np.einsum("ac,ac->a", P[test.task], O)
            scores[m] += np.log(np.maximum(like, EPS)).sum()
    chosen = max(scores, key=scores.get)
    DawidSkene(channel=M, model=chosen).fit(A)
    return chosen


def bench(name: str, A, eps: float, repeats: int) -> dict:
    "Best-of-`repeats` seconds of one channel fit, model='auto' and auto by separate fits."
    mech = RandomizedResponse(eps, A.n_classes)
    M, noisy = mech.transition_matrix(), mech.privatize(A, rng=0)
    single, auto, warm, apart = [], [], [], []
    fit, warm_fit = (DawidSkene(channel=M, model="auto", warm_folds=w) for w in (False, True))
    for _ in range(repeats):
        single.append(timed(lambda: DawidSkene(channel=M, model="full").fit(noisy)))
        auto.append(timed(lambda: fit.fit(noisy)))
        warm.append(timed(lambda: warm_fit.fit(noisy)))
        apart.append(timed(lambda: separate(noisy, M)))
    assert separate(noisy, M) == fit.model_  # the same choice
    return dict(case=name, eps=eps, single=min(single), auto=min(auto), warm=min(warm),
                apart=min(apart), chose=fit.model_, warm_chose=warm_fit.model_, folds=3)


def markdown(rows: list) -> str:
    "The results as a Markdown table."
    lines = [
        "| answers | ε | one fit (full, s) | model='auto' (s) | auto / one fit | goal: folds + 1 "
        "| warm folds / one fit | separate fits (s) | separate / one fit | separate / auto | chose "
        "| warm chose |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['case']} | {r['eps']:g} | {r['single']:.3f} | {r['auto']:.3f} | "
            f"{r['auto'] / r['single']:.1f}× | {r['folds'] + 1}× | {r['warm'] / r['single']:.1f}× | "
            f"{r['apart']:.3f} | {r['apart'] / r['single']:.1f}× | {r['apart'] / r['auto']:.2f}× | "
            f"{r['chose']} | {r['warm_chose']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--quick", action="store_true", help="one small synthetic set; prints only")
    p.add_argument("--repeats", type=int, default=3, help="interleaved repeats; best time kept")
    p.add_argument("--out", type=Path, default=None, help=f"output (full run: {DEFAULT_OUT.name})")
    args = p.parse_args(argv)
    rows = [bench(*c, repeats=args.repeats) for c in cases(args.quick)]
    text = markdown(rows)
    print(text)
    out = args.out or (None if args.quick else DEFAULT_OUT)
    if out:
        intro = __doc__.split("\n\n")[1].replace("\n", " ")
        out.write_text("# model='auto' against one fit\n\n" + intro + "\n\n" + text)


if __name__ == "__main__":
    main()
