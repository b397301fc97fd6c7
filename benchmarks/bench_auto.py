"""Cost of `DawidSkene(channel=M, model="auto")` against one fit of the model it defaults to.

`model="auto"` fits the four candidate models on each of `folds` held-out splits in one shared EM
loop (one sparse product per E-step and one per M-step for all of them), then fits the chosen one:
the goal is at most folds + 1 fits' time. Beside it, `warm_folds=True` (the candidates fitted on
all answers in one shared loop first, each fold's EM started from its candidate's posteriors), and
the same held-out scores from separate fits (each candidate alone on each fold, as `auto` did before
the shared loop) and the final fit, and `auto` with the six candidates of 03h (the hierarchical and
community models too). All are timed on the same randomized-response answers, in one process, interleaved, best of
`--repeats`. Run `python benchmarks/bench_auto.py` (writes benchmarks/results/bench_auto.md) or
`--quick` (prints only). `--before REV` times instead single hierarchical and community fits with the
hierarchy's M-step of the library at git revision REV against today's, interleaved in one process
(`--out` names the Markdown file it writes).
"""

from __future__ import annotations

import argparse
import subprocess
import time
import types
from pathlib import Path

import numpy as np

import ldp_truth.inference.dawid_skene as inference  # where DawidSkene looks up _fit_hierarchy
from ldp_truth.data import datasets_available, load_dataset
from ldp_truth.experiments import rr_perturbation
from ldp_truth.inference import AUTO_CANDIDATES, HIERARCHY_MODELS, DawidSkene
from ldp_truth.kernels import EPS
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
    single, auto, warm, apart, six = [], [], [], [], []
    fit, warm_fit = (DawidSkene(channel=M, model="auto", warm_folds=w) for w in (False, True))
    six_fit = DawidSkene(channel=M, model="auto", candidates=AUTO_CANDIDATES + HIERARCHY_MODELS)
    for _ in range(repeats):
        single.append(timed(lambda: DawidSkene(channel=M, model="full").fit(noisy)))
        auto.append(timed(lambda: fit.fit(noisy)))
        warm.append(timed(lambda: warm_fit.fit(noisy)))
        apart.append(timed(lambda: separate(noisy, M)))
        six.append(timed(lambda: six_fit.fit(noisy)))
    assert separate(noisy, M) == fit.model_  # the same choice
    return dict(case=name, eps=eps, single=min(single), auto=min(auto), warm=min(warm),
                apart=min(apart), six=min(six), chose=fit.model_, warm_chose=warm_fit.model_,
                six_chose=six_fit.model_, folds=3)


def markdown(rows: list) -> str:
    "The results as a Markdown table."
    lines = [
        "| answers | ε | one fit (full, s) | model='auto' (s) | auto / one fit | goal: folds + 1 "
        "| warm folds / one fit | separate fits (s) | separate / one fit | separate / auto | chose "
        "| warm chose | six candidates (s) | six / one fit | six chose |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['case']} | {r['eps']:g} | {r['single']:.3f} | {r['auto']:.3f} | "
            f"{r['auto'] / r['single']:.1f}× | {r['folds'] + 1}× | {r['warm'] / r['single']:.1f}× | "
            f"{r['apart']:.3f} | {r['apart'] / r['single']:.1f}× | {r['apart'] / r['auto']:.2f}× | "
            f"{r['chose']} | {r['warm_chose']} | {r['six']:.3f} | {r['six'] / r['single']:.1f}× | "
            f"{r['six_chose']} |"
        )
    return "\n".join(lines) + "\n"


def library_at(rev: str) -> types.ModuleType:
    "`ldp_truth.inference` as it was at git revision `rev` (one module, before it became a package)."
    text = subprocess.run(["git", "show", f"{rev}:ldp_truth/inference.py"], cwd=HERE.parent,
                          check=True, capture_output=True, text=True).stdout
    module = types.ModuleType(f"inference_at_{rev}")
    exec(compile(text.replace("from .", "from ldp_truth."), module.__name__, "exec"), module.__dict__)
    return module


HIERARCHY_CASES = [("adult_content", 2.0), ("weather", 4.0), ("web", 1.0), ("weather", None)]


def hierarchy_before_after(rev: str, repeats: int) -> str:
    "Single hierarchical and community fits, the M-step at `rev` against today's: a Markdown table."
    before, today = library_at(rev)._fit_hierarchy, inference._fit_hierarchy
    lines = ["| answers | ε | model | before (s) | after (s) | before / after | identical |",
             "|---|---:|---|---:|---:|---:|---|"]
    for name, eps in (c for c in HIERARCHY_CASES if datasets_available(c[0])):
        A = load_dataset(name).answers
        M, P = (None, A) if eps is None else rr_perturbation(A, name, eps, 0)
        for model in HIERARCHY_MODELS:
            times, fits = {before: [], today: []}, {}
            for _ in range(repeats):
                for step in (before, today):  # interleaved: the same load on both
                    inference._fit_hierarchy = step
                    t = time.perf_counter()
                    fits[step] = DawidSkene(channel=M, model=model).fit(P)
                    times[step].append(time.perf_counter() - t)
            inference._fit_hierarchy = today
            same = all(np.array_equal(getattr(fits[before], a), getattr(fits[today], a))
                       for a in ("proba_", "prior_strength_", "community_", "log_likelihood_"))
            b, a = min(times[before]), min(times[today])
            lines.append(f"| {name} | {'none' if eps is None else f'{eps:g}'} | {model} | {b:.3f} | "
                         f"{a:.3f} | {b / a:.2f}× | {'bit for bit' if same else 'NO'} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--quick", action="store_true", help="one small synthetic set; prints only")
    p.add_argument("--repeats", type=int, default=3, help="interleaved repeats; best time kept")
    p.add_argument("--out", type=Path, default=None, help=f"output (full run: {DEFAULT_OUT.name})")
    p.add_argument("--before", default=None, help="git revision: hierarchy fits, its M-step vs today's")
    args = p.parse_args(argv)
    if args.before:
        text = hierarchy_before_after(args.before, args.repeats)
        print(text)
        if args.out:
            args.out.write_text(text)
        return
    rows = [bench(*c, repeats=args.repeats) for c in cases(args.quick)]
    text = markdown(rows)
    print(text)
    out = args.out or (None if args.quick else DEFAULT_OUT)
    if out:
        intro = __doc__.split("\n\n")[1].replace("\n", " ")
        out.write_text("# model='auto' against one fit\n\n" + intro + "\n\n" + text)


if __name__ == "__main__":
    main()
