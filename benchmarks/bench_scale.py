"""How Dawid–Skene's cost grows: with the number of workers in memory (against crowd-kit), and on a Dask cluster
with the number of partitions and of answers (from Parquet files), with the scheduler's share of each iteration.

Run `python benchmarks/bench_scale.py` (about 20–30 minutes on 2 cores, 10⁸ answers included; writes benchmarks/results/bench_scale.md)
or `python benchmarks/bench_scale.py --quick` (small sizes, a smoke test; prints only unless --out).
`--only-workers` runs only the in-memory table (seconds per iteration vs workers, against crowd-kit and the previous
code) and replaces that section of the results file. `--only-one-machine --answers N` runs only the one-machine section (simulate, `Answers`, privatize, DS) on N answers
(default 10⁸: about 5 GB of memory) and replaces that section of the results file, leaving the others as they are.
"""
from __future__ import annotations

import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)   # crowd-kit on pandas 3
warnings.filterwarnings("ignore", category=FutureWarning)

import argparse
import datetime as dt
import json
import logging
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

import crowdkit.aggregation as ck
import dask
import dask.dataframe as dd
from dask.distributed import Client, LocalCluster

from ldp_truth import distributed as dist
from ldp_truth.data import Answers
from ldp_truth import inference
from ldp_truth.inference import DawidSkene, MajorityVote
from ldp_truth.kernels import EPS, onehot, softmax_rows
from ldp_truth.mechanisms import RandomizedResponse
from ldp_truth.simulate import confusion_workers, confusion_workers_chunked, random_confusions

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_scale.md"
SEED = 20261123
K = 5


def simulate_frame(n_answers: int, n_workers: int, answers_per_task: int = 10, seed: int = SEED) -> pd.DataFrame:
    "About `n_answers` simulated Dawid–Skene answers (K=5, `answers_per_task` per task) as a long DataFrame."
    n_tasks = max(1, n_answers // answers_per_task)
    ds = confusion_workers(n_workers, n_tasks, random_confusions(n_workers, K, rng=seed), density=answers_per_task / n_workers,
                           rng=seed + 1)
    A = ds.answers
    return pd.DataFrame({"worker": A.worker, "task": A.task, "label": A.value})


def best_seconds(f, repeats: int = 3) -> float:
    "The fastest of `repeats` timed calls of `f()` (after one untimed warm-up call)."
    f()
    times = []
    for _ in range(repeats):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return min(times)


def marginal_seconds(fit, n_iter: int) -> float:
    "Seconds per iteration without set-up: (T(n_iter) − T(1)) / (n_iter − 1), each T the best of 3 after a warm-up."
    return (best_seconds(lambda: fit(n_iter)) - best_seconds(lambda: fit(1))) / (n_iter - 1)


# ---- the previous Dawid–Skene iteration (ldp_truth at commit ed2ace9: full model, no channel, smoothing 0), kept here
# only as the reference to time against and to check the new code's log-likelihood with ----------------------------
def _previous_e_step(X, log_conf, log_prior):
    W, K, L = log_conf.shape
    R = X @ log_conf.transpose(0, 2, 1).reshape(W * L, K)
    R += log_prior
    P, lse = softmax_rows(R)
    return P, float(lse.sum())

def _previous_m_step(XT, P, W):
    N = (XT @ P).reshape(W, -1, P.shape[1]).transpose(0, 2, 1)
    E = np.maximum(N, EPS)
    return E / E.sum(2, keepdims=True)

def previous_fit(A: Answers, n_iter: int) -> tuple:
    "The previous code's `DawidSkene(n_iter, tol=0).fit(A)` (default model): last posteriors and log-likelihood."
    X = onehot(A.worker, A.task, A.value, A.n_workers, A.n_tasks, A.n_classes)
    XT, unanswered = X.T, np.bincount(A.task, minlength=A.n_tasks) == 0
    P = np.nan_to_num(MajorityVote().fit(A).proba_)
    mean = lambda P: (P.sum(0) - P[unanswered].sum(0)) / (len(P) - unanswered.sum())
    prior, E = mean(P), _previous_m_step(XT, P, A.n_workers)
    for _ in range(n_iter):
        P, ll = _previous_e_step(X, np.log(E), np.log(prior))
        prior, E = mean(P), _previous_m_step(XT, P, A.n_workers)
    return P, ll
# -------------------------------------------------------------------------------------------------------------------


def interleaved_marginal(fits: dict, n_iter: int, rounds: int = 3, clock=time.perf_counter) -> dict:
    "Seconds per iteration of each `fits[name](n)`: (T(n_iter) − T(1)) / (n_iter − 1), each T the best of `rounds`, the fits interleaved so that load drifts hit all alike (`clock`: wall time, or e.g. time.process_time for CPU time)."
    best = {}
    for name, fit in fits.items(): fit(1)                               # warm-up
    for _ in range(rounds):
        for name, fit in fits.items():
            for n in (1, n_iter):
                t = clock(); fit(n); best[name, n] = min(best.get((name, n), np.inf), clock() - t)
    return {name: (best[name, n_iter] - best[name, 1]) / (n_iter - 1) for name in fits}


def one_block(fit):
    "`fit` with the E- and M-steps in one block (one thread): what the second core adds, measured beside the default."
    def run(n):
        saved, inference._BLOCKS = inference._BLOCKS, 1
        try: return fit(n)
        finally: inference._BLOCKS = saved
    return run


def gather_floor(A: Answers) -> dict:
    "ns per answer of the irreducible parts of an iteration: one gather of the (W·K) × K table row per answer (task order), and streaming the answers' 8 bytes of index + value."
    cols = (A.worker.astype(np.int64) * K + A.value)[np.argsort(A.task, kind="stable")]
    table = np.random.default_rng(0).random((A.n_workers * K, K))
    gather = best_seconds(lambda: np.take(table, cols, axis=0))
    stream = best_seconds(lambda: cols.sum())
    return dict(gather_ns=gather / A.n_answers * 1e9, stream_ns=stream / A.n_answers * 1e9, table_MB=table.nbytes / 1e6)


def workers_table(n_answers: int, worker_counts: list, n_iter: int) -> pd.DataFrame:
    "In memory: seconds per DS iteration of crowd-kit, the previous code, ours in one block (one thread) and ours as shipped (two blocks on two threads), at a fixed number of answers and growing worker counts."
    rows = []
    for W in worker_counts:
        df = simulate_frame(n_answers, W)
        A = Answers.from_frame(df)
        load = os.getloadavg()[0]
        t = interleaved_marginal({"crowdkit": lambda n: ck.DawidSkene(n_iter=n, tol=-np.inf).fit_predict(df),
                                  "previous": lambda n: previous_fit(A, n),
                                  "one_block": one_block(lambda n: DawidSkene(n_iter=n, tol=0).fit_predict(df)),
                                  "ours": lambda n: DawidSkene(n_iter=n, tol=0).fit_predict(df)}, n_iter)
        ours, (P_prev, ll_prev) = DawidSkene(n_iter=n_iter, tol=0).fit(A), previous_fit(A, n_iter)
        theirs = ck.DawidSkene(n_iter=n_iter, tol=-np.inf).fit_predict(df)
        agree = float((A.classes[ours.labels_] == theirs.reindex(A.tasks).to_numpy()).mean())
        rows.append(dict(answers=len(df), workers=W, load_1min=load, crowdkit_s_per_iter=t["crowdkit"],
                         previous_s_per_iter=t["previous"], one_block_s_per_iter=t["one_block"], ours_s_per_iter=t["ours"],
                         speedup=t["crowdkit"] / t["ours"], vs_previous=t["previous"] / t["ours"],
                         same_labels_crowdkit=agree, ll_rel_diff_previous=abs(ours.log_likelihood_[-1] - ll_prev) / abs(ll_prev),
                         **gather_floor(A)))
        rows[-1]["floor_s_per_iter"] = 2 * rows[-1]["gather_ns"] * 1e-9 * len(df)     # E-step gather + M-step scatter
        rows[-1]["max_speedup"] = t["crowdkit"] / rows[-1]["floor_s_per_iter"]
        print(rows[-1], flush=True)
    return pd.DataFrame(rows)


WORKERS_NOTE = ("`*_s_per_iter`: marginal seconds per EM iteration, (T({n}) − T(1)) / {m}, each T the best of 3 with the four "
                "fits interleaved; `crowdkit` = crowd-kit's DawidSkene, `previous` = ldp_truth before the blocks (the copy in "
                "this script), `one_block` = ours with `_BLOCKS = 1` (one thread), `ours` = as shipped (`_BLOCKS = 2`: two blocks of tasks on two threads). "
                "`speedup` = crowd-kit / ours; `vs_previous` = previous / ours; `load_1min`: the machine's load average "
                "when the row started (2 cores; other jobs share them). `same_labels_crowdkit`: share of tasks with crowd-kit's "
                "label after the same number of iterations; `ll_rel_diff_previous`: relative difference of the final log-likelihood from "
                "the previous code's. `gather_ns`: one `np.take` of a (W·K) × K float64 table row per answer in task order "
                "(what the E-step's product must at least do), `stream_ns`: one pass over the answers' int64 column keys; "
                "`table_MB`: the table's size (L2 1 MB per core, L3 32 MB shared). `floor_s_per_iter` = 2 × gather_ns × answers: "
                "an iteration touches one table row per answer twice (the E-step reads B[(w, z), :], the M-step adds into "
                "N[(w, z), :]), so no order of work that visits each answer's row once per step beats it on one core; "
                "`max_speedup` = crowd-kit / that floor, the most a per-answer formulation in NumPy/SciPy could reach "
                "on one core (the tables' float64 `exp`/`log`, ~10 ns each here, come on top).")


def workers_section(workers: pd.DataFrame, n_mem: int, n_iter: int) -> str:
    "The Markdown section of the in-memory table (seconds per iteration vs workers)."
    return (f"## In memory: seconds per DS iteration vs number of workers ({n_mem:,} answers, K={K})\n\n"
            f"{markdown(workers)}\n\n{WORKERS_NOTE.format(n=n_iter, m=n_iter - 1)}\n\n")


def dask_iteration(client, ddf, n_iter: int) -> dict:
    "Median seconds of one EM iteration (map-reduce) on the cluster, and the one-process compute time of all partitions."
    D = dist.DaskAnswers(ddf, by_task=True, client=client)
    codes = D.codes
    W = codes.n_workers
    log_conf, log_prior = np.log(np.full((W, K, K), 1 / K)), np.log(np.full(K, 1 / K))
    times = []
    for _ in range(n_iter):
        t = time.perf_counter()
        D.em_round(log_conf, log_prior)
        times.append(time.perf_counter() - t)
    local = [dist._build_part(f.result(), codes, "worker", "task", "label") for f in dist_futures(client, ddf)]
    t = time.perf_counter()
    dist._add(*[dist._em_step(p, log_conf, log_prior) for p in local])
    compute = time.perf_counter() - t
    per_iter = float(np.median(times))
    return dict(s_per_iter=per_iter, compute_s=compute, compute_share=min(1.0, compute / 2 / per_iter))


def dist_futures(client, ddf) -> list:
    "The partitions of `ddf` as futures (to bring them, one at a time, into this process)."
    from dask.distributed import futures_of
    return futures_of(client.persist(ddf))


def markdown(df: pd.DataFrame) -> str:
    "A DataFrame as a Markdown table (4 significant digits)."
    fmt = lambda v: f"{v:.4g}" if isinstance(v, float) else f"{v:,}" if isinstance(v, (int, np.integer)) else str(v)
    return "\n".join(["| " + " | ".join(df.columns) + " |", "|" + "---:|" * df.shape[1]]
                     + ["| " + " | ".join(fmt(v) for v in r) + " |" for r in df.itertuples(index=False)])


def to_parquet_by_task(df: pd.DataFrame, path: Path, npartitions: int) -> None:
    "Write `df` as Parquet files partitioned by task ranges (each task's answers in one file)."
    df = df.sort_values("task")
    bounds = np.searchsorted(df.task.to_numpy(), np.linspace(0, df.task.max() + 1, npartitions + 1))
    path.mkdir(parents=True, exist_ok=True)
    for i in range(npartitions):
        df.iloc[bounds[i]:bounds[i + 1]].to_parquet(path / f"part-{i:04d}.parquet", index=False)


def dask_tables(client, sizes: list, partitions: list, n_workers: int, n_iter: int) -> tuple:
    "Seconds per iteration vs partitions (at the middle size) and vs answers (at 2 partitions per core), from Parquet."
    by_parts, by_size = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            df = simulate_frame(n, n_workers)
            for P in (partitions if n == sizes[len(sizes) // 2] else [4]):
                where = Path(tmp) / f"{n}-{P}"
                to_parquet_by_task(df, where, P)
                r = dict(answers=len(df), partitions=P, **dask_iteration(client, dd.read_parquet(where), n_iter))
                print(r, flush=True)
                (by_parts if n == sizes[len(sizes) // 2] else by_size).append(r)
                if P == 4 and n == sizes[len(sizes) // 2]: by_size.append(r)
    return pd.DataFrame(by_parts), pd.DataFrame(by_size).sort_values("answers")


def estimate(by_size: pd.DataFrame, n_workers: int, machines: int = 16, cores: int = 8, bandwidth: float = 1e9) -> str:
    "What 10⁹ answers on `machines` machines would take per iteration, from the measured compute per answer and the broadcast."
    big = by_size.iloc[-1]
    per_answer = big.compute_s / big.answers
    compute = 1e9 * per_answer / (machines * cores)
    broadcast = 2 * n_workers * K * K * 8 * machines / bandwidth   # parameters out, counts back, per machine
    return (f"- measured compute: {per_answer * 1e9:.1f} ns per answer per E+M step (largest size, one core)\n"
            f"- 10⁹ answers over {machines} machines × {cores} cores: {compute:.2f} s of compute per iteration\n"
            f"- broadcast of {n_workers} workers' K×K parameters and the counts back: {broadcast:.3f} s at "
            f"{bandwidth / 1e9:.0f} GB/s\n"
            f"- estimate: about {compute + broadcast:.1f} s per iteration, plus scheduling (measured here: the "
            f"non-compute share of an iteration); it assumes perfect balance, data already partitioned by task on the "
            f"machines' disks, {n_workers} workers (the broadcast grows with W·K², the compute with the answers).")


STAGES = ("simulate", "answers", "privatize", "dawid_skene")


def _load_answers(tmp: Path, n_workers: int, n_tasks: int) -> Answers:
    "The simulated answers saved by the `simulate` stage, as `Answers`."
    arr = {k: np.load(tmp / f"{k}.npy") for k in ("worker", "task", "value")}
    return Answers(arr["worker"], arr["task"], arr["value"], n_workers=n_workers, n_tasks=n_tasks, n_classes=K)


def warm_up(f, A: Answers, n: int = 10_000) -> float:
    "Seconds of `f` on A's first `n` answers (ids renumbered): loads or compiles the kernels before the timed part."
    w, t = (np.unique(x[:n], return_inverse=True)[1] for x in (A.worker, A.task))
    small = Answers(w, t, A.value[:n], n_classes=K)
    start = time.perf_counter(); f(small); return time.perf_counter() - start


def run_stage(stage: str, n_answers: int, tmp: Path, n_iter: int) -> dict:
    "One stage of the one-machine pipeline, timed, in this process (meant to be a fresh one: its peak RSS is the stage's)."
    n_workers, n_tasks = max(10, n_answers // 100), max(1, n_answers // 10)     # 10⁸ → 10⁶ workers × 10⁷ tasks
    r = {"base_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}   # the interpreter and imports
    if stage == "simulate":
        conf = random_confusions(n_workers, K, rng=SEED)
        tracemalloc.start()
        t = time.perf_counter()
        ds = confusion_workers_chunked(n_workers, n_tasks, conf, density=10 / n_workers, rng=SEED + 1)
        r["seconds"] = time.perf_counter() - t
        for k in ("worker", "task", "value"): np.save(tmp / f"{k}.npy", getattr(ds.answers, k))
        np.save(tmp / "truth.npy", ds.truth.astype(np.int8))
        r["answers"] = ds.answers.n_answers
    elif stage == "answers":
        arr = {k: np.load(tmp / f"{k}.npy") for k in ("worker", "task", "value")}
        tracemalloc.start()
        t = time.perf_counter()
        A = Answers(arr["worker"], arr["task"], arr["value"], n_workers=n_workers, n_tasks=n_tasks, n_classes=K)
        r["seconds"] = time.perf_counter() - t
        r["answers"] = A.n_answers
    elif stage == "privatize":
        A = _load_answers(tmp, n_workers, n_tasks)
        r["warm_up_s"] = warm_up(lambda a: RandomizedResponse(2.0, K).privatize(a, rng=SEED), A)
        tracemalloc.start()
        t = time.perf_counter(); B = RandomizedResponse(2.0, K).privatize(A, rng=SEED); r["seconds"] = time.perf_counter() - t
        r["answers"], r["kept"] = A.n_answers, float((B.value == A.value).mean())
    elif stage == "dawid_skene":
        A = _load_answers(tmp, n_workers, n_tasks)
        truth = np.load(tmp / "truth.npy")
        r["warm_up_s"] = warm_up(lambda a: DawidSkene(n_iter=2, tol=0).fit(a), A)
        tracemalloc.start()
        t1 = time.perf_counter(); DawidSkene(n_iter=1, tol=0).fit(A); t1 = time.perf_counter() - t1
        tn = time.perf_counter(); m = DawidSkene(n_iter=n_iter, tol=0).fit(A); tn = time.perf_counter() - tn
        r["s_per_iter"] = (tn - t1) / (n_iter - 1)
        r["seconds"] = r["setup_s"] = t1 - r["s_per_iter"]
        r["answers"], r["accuracy"] = A.n_answers, float((m.labels_ == truth).mean())
    r["work_bytes"] = tracemalloc.get_traced_memory()[1]     # the stage's own peak (NumPy buffers), inputs excluded
    r["peak_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024     # Linux: kilobytes
    return r


def one_machine_table(n_answers: int, n_iter: int = 10) -> pd.DataFrame:
    "Each stage in a fresh subprocess (so each peak RSS is that stage's alone): seconds and peak bytes per answer."
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for stage in STAGES:
            out = subprocess.run([sys.executable, __file__, "--stage", stage, "--answers", str(n_answers), "--tmp", tmp,
                                  "--n-iter", str(n_iter)], check=True, capture_output=True, text=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            rows.append(dict(stage=stage, answers=r["answers"], seconds=r["seconds"],
                             s_per_iter=r.get("s_per_iter", float("nan")), peak_GB=r["peak_bytes"] / 1e9,
                             bytes_per_answer=r["peak_bytes"] / r["answers"],
                             net_bytes_per_answer=(r["peak_bytes"] - r["base_bytes"]) / r["answers"],
                             work_bytes_per_answer=r["work_bytes"] / r["answers"],
                             warm_up_s=r.get("warm_up_s", float("nan")),
                             note=(f"accuracy {r['accuracy']:.4f}" if "accuracy" in r else
                                   f"kept {r['kept']:.4f}" if "kept" in r else "")))
            print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def one_machine_section(n_answers: int, n_iter: int = 10) -> str:
    "The Markdown section of the one-machine run, with the machine's load beside it."
    load, start = os.getloadavg(), dt.datetime.now(dt.timezone.utc)
    table = one_machine_table(n_answers, n_iter)
    return (f"## One machine: {n_answers:,} answers (K={K}, {max(10, n_answers // 100):,} workers, "
            f"{max(1, n_answers // 10):,} tasks, 10 answers per task)\n\n"
            f"Load average at the start (1/5/15 min, {os.cpu_count()} cores): {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}; "
            f"started {start:%Y-%m-%d %H:%M} UTC, {(dt.datetime.now(dt.timezone.utc) - start).total_seconds():.0f} s.\n\n{markdown(table)}\n\n"
            "Each stage runs in a fresh process: `simulate` = `confusion_workers_chunked` (including its `Answers`); "
            "`answers` = `Answers(worker, task, value)` from the saved int32/int32/int8 arrays; `privatize` = "
            "`RandomizedResponse(2, 5).privatize`; `dawid_skene`: `seconds` = set-up (one-hot matrices, majority-vote "
            f"start) = T(1 iteration) − s_per_iter, `s_per_iter` = (T({n_iter}) − T(1)) / {n_iter - 1}. `peak_GB`: the "
            "process's maximum resident memory (including the loaded answers and the interpreter); `bytes_per_answer` = "
            "peak / answers; `net_bytes_per_answer` without the resident memory the process had before the stage began (Python and the imports); `work_bytes_per_answer`: the stage's own peak of traced allocations (tracemalloc: NumPy and SciPy buffers allocated during the timed part; the loaded inputs and the `Answers` being privatized or fitted excluded). `warm_up_s`: the same call on the first 10,000 answers before the timed part (it loads the compiled kernels, or compiles them when the cache is cold: not counted as set-up). Goals: bench_scale's (privatize < 5 s, DS ≤ 3 s per iteration, set-up ≤ 30 s, ≤ 40 bytes per answer); the compiled kernels' (DS ≤ 2 s per iteration, set-up ≤ 10 s, ≤ 40 bytes per answer).\n")


def replace_section(text: str, section: str, heading: str = "## One machine") -> str:
    "`text` with its section under `heading` replaced by `section` in place (or `section` appended when there is none)."
    parts = re.split(r"(?m)^(?=## )", text)
    at = [i for i, p in enumerate(parts) if p.startswith(heading)]
    if not at: return "".join(parts).rstrip("\n") + "\n\n" + section
    parts[at[0]] = section.rstrip("\n") + "\n\n"
    return "".join(p for i, p in enumerate(parts) if i not in at[1:])


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes (smoke test)")
    p.add_argument("--out", type=Path, default=None, help=f"write the Markdown table here (full run default: {DEFAULT_OUT})")
    p.add_argument("--answers", type=int, default=None, help="answers in the one-machine section (default 10⁸; --quick: 10⁵)")
    p.add_argument("--only-one-machine", action="store_true", help="run only the one-machine section")
    p.add_argument("--only-workers", action="store_true", help="run only the in-memory seconds-per-iteration-vs-workers section")
    p.add_argument("--keep-one-machine", action="store_true", help="run the other sections; keep the one-machine section already in --out")
    p.add_argument("--stage", choices=STAGES, help=argparse.SUPPRESS)    # internal: one stage in a fresh process
    p.add_argument("--tmp", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--n-iter", type=int, default=10, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    n_answers = a.answers or (100_000 if a.quick else 100_000_000)
    if a.stage:
        print(json.dumps(run_stage(a.stage, n_answers, a.tmp, a.n_iter)))
        return
    out = a.out or (None if a.quick else DEFAULT_OUT)
    if a.only_one_machine:
        section = one_machine_section(n_answers)
        print(section)
        if out:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(replace_section(out.read_text() if out.exists() else "# bench_scale\n", section))
        return
    logging.getLogger("distributed").setLevel(logging.ERROR)
    if a.only_workers:
        n_mem, counts, n_iter = (20_000, [100, 2_000], 3) if a.quick else (2_000_000, [1_000, 20_000, 200_000], 10)
        section = workers_section(workers_table(n_mem, counts, n_iter), n_mem, n_iter)
        print(section)
        if out:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(replace_section(out.read_text() if out.exists() else "# bench_scale\n", section, "## In memory"))
        return
    if a.quick:
        n_mem, worker_counts, sizes, partitions, n_iter = 20_000, [100, 2_000], [5_000, 10_000, 20_000], [2, 4], 3
    else:
        n_mem, worker_counts = 2_000_000, [1_000, 20_000, 200_000]
        sizes, partitions, n_iter = [100_000, 1_000_000, 10_000_000], [2, 4, 8, 16], 5
    t0 = time.perf_counter()
    machine = "" if a.keep_one_machine else one_machine_section(n_answers)
    workers = workers_table(n_mem, worker_counts, n_iter)
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
        by_parts, by_size = dask_tables(client, sizes, partitions, 1000, n_iter)
    text = (f"# bench_scale ({dt.date.today()}, {platform.machine()}, {os.cpu_count()} cores, dask {dask.__version__}; "
            f"{time.perf_counter() - t0:.0f} s)\n\n"
            f"{workers_section(workers, n_mem, n_iter)}"
            f"## Dask LocalCluster (2 worker processes): vs partitions ({sizes[len(sizes) // 2]:,} answers, 1000 workers)\n\n"
            f"{markdown(by_parts)}\n\n"
            f"## Dask LocalCluster: vs answers (4 partitions, from Parquet)\n\n"
            f"{markdown(by_size)}\n\n"
            "`s_per_iter`: marginal seconds per EM iteration; `compute_s`: one E+M step of every partition timed in one "
            "process; `compute_share`: compute_s / (2 cores × s_per_iter), the rest is scheduling and transfers.\n\n"
            f"## 10⁹ answers on 16 machines (estimate)\n\n{estimate(by_size, 1000)}\n\n{machine}")
    if out and out.exists():       # hand-written notes are kept; the one-machine section too with --keep-one-machine
        keep = ("## One machine", "## Notes") if a.keep_one_machine else ("## Notes",)
        old = [p for p in re.split(r"(?m)^(?=## )", out.read_text()) if p.startswith(keep)]
        text = text.rstrip("\n") + "\n\n" + "".join(old)
    print(text)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)


if __name__ == "__main__":
    main()
