"""Speed of the browser client `ldp_truth.js` in headless Chromium, and the size of a task page.

Goal (the browser work): 10⁵ answers privatized in under 1 s in headless Chromium on these machines, and
`task.html` under 50 KB for 100 items. Each browser run privatizes 10⁵ answers (10⁵ tasks) of one worker
with `Client.release` (the path the task page takes: labels in, perturbed labels out, randomness from
crypto.getRandomValues, each draw kept in a storage: here an in-memory one, fresh per run, so that every
run draws), timed inside the page with performance.now(). The reference, in the same
process and interleaved with the browser runs, is the Python mechanism privatizing the same 10⁵ answers:
`privatize` on the NumPy generator (simulation) and with `secure=True` (OpenDP's samplers, what a Python
deployment would use). Ratios are browser / Python. Run `python benchmarks/bench_browser.py` (writes
benchmarks/results/bench_browser.md) or `--quick` (fewer repeats, prints only).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ldp_truth.browser import chromium_available, client_page, in_chromium, task_page
from ldp_truth.data import Answers
from ldp_truth.mechanisms import Geometric, RandomizedResponse, TwoLayer
import ldp_truth.spec  # noqa: F401  (Mechanism.spec)

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_browser.md"
N = 100_000

IN_PAGE = """async ([spec, labels]) => {
    const client = await ldpTruth.openSpec(spec), kept = new Map();
    const storage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
    const tasks = labels.map((_, i) => `t${i}`);
    const t = performance.now();
    const out = client.release("w1", tasks, labels, storage);
    return [performance.now() - t, out.length];
}"""


def mechanisms() -> list:
    "(name, the spec's mechanism, secure → the Python reference on class indices 0..4)."
    grid = np.arange(1, 6)
    return [
        ("rr, K=5, ε=1", RandomizedResponse(1.0, 5, classes=list("abcde")),
         lambda secure: RandomizedResponse(1.0, 5, secure=secure)),
        ("two-layer, K=5, ε=1", TwoLayer.from_epsilon(1.0, 5, classes=list("abcde")),
         lambda secure: TwoLayer.from_epsilon(1.0, 5, secure=secure)),
        ("geometric, 1..5, ε=1", Geometric(1.0, grid), lambda secure: Geometric(1.0, grid, secure=secure)),
    ]


def python_seconds(mech, rng) -> float:
    "Wall time of the Python mechanism privatizing N answers (one worker per answer)."
    values = rng.integers(0, 5, N)
    answers = Answers(np.arange(N), np.zeros(N, np.int64), values, n_classes=5)
    t = time.perf_counter()
    mech.privatize(answers, rng=0)
    return time.perf_counter() - t


def run(repeats: int) -> pd.DataFrame:
    "Interleaved browser and Python timings, best of `repeats` each."
    rng = np.random.default_rng(0)
    specs = [(name, m.spec(), python(False), python(True)) for name, m, python in mechanisms()]

    def task(browser):
        page = client_page(browser)
        rows = []
        for name, spec, simulation, secure in specs:
            labels = [str(v) for v in np.asarray(page_labels(spec))[rng.integers(0, 5, N)]]
            times = {"browser": [], "numpy": [], "opendp": []}
            for _ in range(repeats):  # interleaved: browser, NumPy, OpenDP, browser, ...
                ms, n_out = page.evaluate(IN_PAGE, [spec, labels])
                assert n_out == N
                times["browser"].append(ms / 1000)
                times["numpy"].append(python_seconds(simulation, rng))
                times["opendp"].append(python_seconds(secure, rng))
            best = {k: min(v) for k, v in times.items()}
            rows.append((name, best["browser"], best["numpy"], best["opendp"]))
        return rows

    rows = in_chromium(task)
    df = pd.DataFrame(rows, columns=["mechanism", "browser_s", "python_numpy_s", "python_opendp_s"])
    df["browser/numpy"] = df.browser_s / df.python_numpy_s
    df["browser/opendp"] = df.browser_s / df.python_opendp_s
    return df


def page_labels(spec: dict) -> list:
    "The answer labels a spec allows: its classes, or its grid's values."
    d = spec["domain"]
    return d["classes"] if d["kind"] == "categorical" else list(range(d["low"], d["high"] + 1, d["step"]))


def markdown(df: pd.DataFrame) -> str:
    "A table in Markdown, numbers to 3 significant digits."
    cell = lambda v: f"{v:.3g}" if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def page_size() -> int:
    "Bytes of the task page for 100 items with a one-line text each."
    items = pd.DataFrame({"task": [f"img{i:03d}" for i in range(100)],
                          "text": [f"Photo {i + 1}: is this smile genuine?" for i in range(100)]})
    spec = RandomizedResponse(1.0, 2, classes=["genuine", "posed"]).spec()
    return len(task_page(spec, items, "Is this smile genuine?").encode())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="2 repeats, print only")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args()
    if not chromium_available():
        return
    load = os.getloadavg()[0]
    df = run(2 if args.quick else args.repeats)
    size = page_size()
    text = (
        f"# Browser client: speed and size\n\n{N:,} answers privatized by `Client.privatize` in headless "
        f"Chromium (best of {2 if args.quick else args.repeats}, interleaved with the Python reference in "
        f"the same process; load average {load:.1f} on 2 cores at the start).\n\n"
        + markdown(df)
        + f"\n\nGoal: under 1 s per 10⁵ answers: {'met' if (df.browser_s < 1).all() else 'MISSED'} "
        f"(slowest {df.browser_s.max():.3f} s).\n\nTask page for 100 items: {size:,} bytes "
        f"({size / 1024:.1f} KiB; goal under 50 KB: {'met' if size < 50_000 else 'MISSED'}).\n\n"
        "Columns: `browser_s` the in-page time of `privatize` (performance.now()); `python_numpy_s` "
        "`Mechanism.privatize` on NumPy's generator (simulation); `python_opendp_s` the same with "
        "`secure=True` (OpenDP's samplers, what a Python deployment uses); ratios browser / Python.\n"
    )
    print(text)
    if not args.quick:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
