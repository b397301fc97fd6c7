"""Dawid–Skene's compiled iteration of this checkout against a previous commit's, in alternating fresh processes.

The previous code is unpacked beside (`git archive COMMIT ldp_truth | tar -x -C DIR`) and put first on sys.path,
each process started in benchmarks/ (no ldp_truth there to shadow either side) on its own numba cache; the first process of each side compiles, so the first round is discarded as a
warm-up. Each process prints one JSON line: seconds per iteration, (T(10) − T(1)) / 9 best of 3, and the final
log-likelihood at 10³ / 2·10⁴ / 2·10⁵ workers (2·10⁶ answers, K = 5), and the load. `--channel`: the answers
through randomized response (ε = 2), fitted by `DawidSkene(channel=M)` (its default shrinkage).
`python benchmarks/bench_previous.py DIR [--rounds 3] [--channel]` prints the lines, then each size's ratios;
`--same-process`: both codes in one process instead (the previous one imported as `previous_ldp`), the fits
interleaved, best of 5, in wall and CPU time, from the second of two processes (both disk caches filled).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZES = (1_000, 20_000, 200_000)
ONE = r"""
import json, os, sys
channel = sys.argv[1] == "channel"  # the answers through randomized response (ε = 2), fitted through it
sys.path[:0] = sys.argv[2:]  # the previous code's folder, if given (bench_scale: the working folder)
from bench_scale import simulate_frame, interleaved_marginal
from ldp_truth import kernels
from ldp_truth.data import Answers
from ldp_truth.inference import DawidSkene
from ldp_truth.mechanisms import RandomizedResponse
kernels.set_kernel_path("numba")
out = {"code": kernels.__file__}
for W in (1_000, 20_000, 200_000):
    A, kw = Answers.from_frame(simulate_frame(2_000_000, W)), {}
    if channel:
        rr = RandomizedResponse(2.0, A.n_classes)
        A, kw = rr.privatize(A, rng=0), {"channel": rr.transition_matrix()}
    out[W] = interleaved_marginal({"f": lambda n: DawidSkene(n_iter=n, tol=0, **kw).fit(A)}, 10, 3)["f"]
    out[f"ll{W}"] = float(DawidSkene(n_iter=10, tol=0, **kw).fit(A).log_likelihood_[-1])
out["load"] = os.getloadavg()[0]
print(json.dumps(out))
"""


def run(previous: Path | None, channel: bool = False) -> dict:
    "One fresh process on this checkout (None) or on the code unpacked in `previous`."
    path = [str(previous.resolve())] if previous else []
    args = [sys.executable, "-c", ONE, "channel" if channel else "plain", *path]
    out = subprocess.run(args, cwd=HERE, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


SAME = r"""
import importlib.util, json, os, sys, time
channel, previous = sys.argv[1] == "channel", sys.argv[2]
from bench_scale import simulate_frame, interleaved_marginal
spec = importlib.util.spec_from_file_location(  # the previous code as package `previous_ldp`
    "previous_ldp", f"{previous}/ldp_truth/__init__.py", submodule_search_locations=[f"{previous}/ldp_truth"])
old = sys.modules["previous_ldp"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(old)
import previous_ldp.data, previous_ldp.inference, previous_ldp.kernels, previous_ldp.mechanisms
import ldp_truth.data, ldp_truth.inference, ldp_truth.kernels, ldp_truth.mechanisms
sides = {"previous": old, "now": sys.modules["ldp_truth"]}
out = {"load_before": os.getloadavg()[0]}
for side in sides.values():
    side.kernels.set_kernel_path("numba")


def fit_of(m, df):
    "n ↦ `m`'s DawidSkene fitted for n iterations on df (through randomized response if `channel`)."
    A, kw = m.data.Answers.from_frame(df), {}
    if channel:
        rr = m.mechanisms.RandomizedResponse(2.0, A.n_classes)
        A, kw = rr.privatize(A, rng=0), {"channel": rr.transition_matrix()}
    return lambda n: m.inference.DawidSkene(n_iter=n, tol=0, **kw).fit(A)


for W in (1_000, 20_000, 200_000):
    df = simulate_frame(2_000_000, W)
    fits = {name: fit_of(m, df) for name, m in sides.items()}
    for clock, tag in ((time.perf_counter, ""), (time.process_time, "cpu_")):
        for name, s in interleaved_marginal(fits, 10, 5, clock).items():
            out[f"{tag}{name}{W}"] = s
    out[f"ll{W}"] = [float(f(10).log_likelihood_[-1]) for f in fits.values()]
out["load_after"] = os.getloadavg()[0]
print(json.dumps(out))
"""


def same_process(previous: Path, channel: bool) -> None:
    "Both codes in one process (the previous under another package name), fits interleaved, best of 5."
    args = [sys.executable, "-c", SAME, "channel" if channel else "plain", str(previous.resolve())]
    for _ in range(2):  # the first process fills both sides' disk caches; the second is reported
        out = subprocess.run(args, cwd=HERE, check=True, capture_output=True, text=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"load {r['load_before']:.1f} → {r['load_after']:.1f}")
    for W in SIZES:
        wall, cpu = (r[f"{t}previous{W}"] / r[f"{t}now{W}"] for t in ("", "cpu_"))
        print(f"{W:>7,} workers: previous {r[f'previous{W}'] * 1e3:.1f} ms, now {r[f'now{W}'] * 1e3:.1f} ms "
              f"(previous / now {wall:.2f}; CPU time {cpu:.2f}); log-likelihoods {r[f'll{W}']}")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("previous", type=Path, help="a folder holding the previous commit's ldp_truth/")
    p.add_argument("--rounds", type=int, default=3, help="rounds after the warm-up round")
    p.add_argument("--channel", action="store_true", help="DawidSkene(channel=M) on randomized answers")
    p.add_argument("--same-process", action="store_true", help="both codes in one process, interleaved")
    a = p.parse_args(argv)
    if a.same_process:
        return same_process(a.previous, a.channel)
    pairs = []
    for r in range(a.rounds + 1):
        old, new = run(a.previous, a.channel), run(None, a.channel)
        assert str(a.previous.resolve()) in old["code"] and str(HERE.parent) in new["code"], (old, new)
        print(json.dumps(old), json.dumps(new), sep="\n", flush=True)
        if r:
            pairs.append((old, new))
    for W in SIZES:
        same = all(o[f"ll{W}"] == n[f"ll{W}"] for o, n in pairs)
        ratios = ", ".join(f"{o[str(W)] / n[str(W)]:.2f} (load {n['load']:.1f})" for o, n in pairs)
        print(f"{W:>7,} workers: previous / now = {ratios}; same final log-likelihood: {same}")


if __name__ == "__main__":
    main()
