"""The compiled (numba) kernels against the NumPy/SciPy path and crowd-kit, in one process: Dawid–Skene seconds per
iteration vs the number of workers, compile and cache-load times, a whole fit in a fresh process, the continuous
aggregators, and (with --big N) the one-machine run of bench_scale on the numba path.

Run `python benchmarks/bench_kernels.py` (about 15 minutes on 2 cores; writes benchmarks/results/bench_kernels.md),
`--quick` (small sizes, prints only), or one section: `--only workers|compile|fresh|steps|continuous|dask`.
`--big N` runs bench_scale's one-machine stages (fresh processes) on N answers with LDP_TRUTH_KERNELS=numba and puts
that section into the results file (10⁸ answers: about 6 GB of memory). `--only fresh --previous DIR` adds the code
unpacked in DIR (`git archive COMMIT ldp_truth | tar -x -C DIR`) to the fresh-process table, interleaved.
"""
from __future__ import annotations

import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)   # crowd-kit on pandas 3
warnings.filterwarnings("ignore", category=FutureWarning)

import argparse
import datetime as dt
import inspect
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_scale import K, interleaved_marginal, markdown, replace_section, simulate_frame   # noqa: E402

import crowdkit.aggregation as ck   # noqa: E402
import numba                        # noqa: E402

from ldp_truth import kernels                                    # noqa: E402
from ldp_truth.data import Answers                               # noqa: E402
from ldp_truth.inference import CRH, GTM, DawidSkene             # noqa: E402

DEFAULT_OUT = HERE / "results" / "bench_kernels.md"


def on_path(path: str, threads: int, fit):
    "`fit` run with the kernels of `path` ('numba' or 'numpy') and numba on `threads` threads."
    def run(*args):
        kernels.set_kernel_path(path)
        numba.set_num_threads(threads)
        try: return fit(*args)
        finally: kernels.set_kernel_path(None); numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return run


def load() -> str:
    "The 1-minute load average now."
    return f"{os.getloadavg()[0]:.1f}"


# ---- Dawid–Skene seconds per iteration vs workers ----------------------------------------------------------------
def workers_table(n_answers: int, worker_counts: list, n_iter: int) -> pd.DataFrame:
    "Marginal seconds per iteration of crowd-kit, the NumPy path and the numba path on 1 and 2 threads, interleaved."
    rows = []
    for W in worker_counts:
        df = simulate_frame(n_answers, W)
        A = Answers.from_frame(df)
        ds = lambda n: DawidSkene(n_iter=n, tol=0).fit(A)
        before = load()
        t = interleaved_marginal({"crowdkit": lambda n: ck.DawidSkene(n_iter=n, tol=-np.inf).fit_predict(df),
                                  "numpy": on_path("numpy", 2, ds), "numba_1": on_path("numba", 1, ds),
                                  "numba_2": on_path("numba", 2, ds)}, n_iter)
        ref = on_path("numpy", 2, ds)(n_iter)
        same = {th: on_path("numba", th, ds)(n_iter) for th in (1, 2)}
        ll = lambda m: m.log_likelihood_[-1]
        best = min(t["numba_1"], t["numba_2"])
        rows.append(dict(answers=len(df), workers=W, load_1min=f"{before}→{load()}",
                         crowdkit=t["crowdkit"], numpy=t["numpy"], numba_1=t["numba_1"], numba_2=t["numba_2"],
                         speedup_2=t["crowdkit"] / t["numba_2"], speedup_best=t["crowdkit"] / best,
                         vs_numpy=t["numpy"] / best,
                         same_labels=all((m.labels_ == ref.labels_).all() for m in same.values()),
                         ll_rel_diff=max(abs(ll(m) - ll(ref)) / abs(ll(ref)) for m in same.values())))
        print(rows[-1], flush=True)
    return pd.DataFrame(rows)


WORKERS_NOTE = ("Seconds per EM iteration, (T({n}) − T(1)) / {m}, each T the best of 3, the four fits interleaved in one "
                "process. `crowdkit`: crowd-kit's DawidSkene; `numpy`: ours with `LDP_TRUTH_KERNELS=numpy` (SciPy sparse "
                "products in two task blocks on a thread pool); `numba_1`, `numba_2`: ours with the compiled kernels on "
                "1 and 2 numba threads. `speedup_2` = crowdkit / numba_2, `speedup_best` = crowdkit / the better of "
                "numba_1 and numba_2 (on a busy 2-core machine a second thread sometimes costs more than it saves), "
                "`vs_numpy` = numpy / that. `same_labels`: the numba path's labels equal the NumPy path's on 1 and 2 "
                "threads; `ll_rel_diff`: the largest relative gap of the final log-likelihoods. `load_1min`: the load "
                "average (2 cores, shared) before → after the row.")


# ---- compile and load ---------------------------------------------------------------------------------------------
PROBE = r"""
import json, sys, time
t = time.perf_counter(); import ldp_truth.inference as inf; t_import = time.perf_counter() - t
numba_at_import = "numba" in sys.modules
from ldp_truth import kernels
from ldp_truth.simulate import confusion_workers, continuous_workers, random_confusions
import numpy as np
A = confusion_workers(50, 500, random_confusions(50, {K}, rng=0), density=0.2, rng=1).answers
C = continuous_workers(50, 500, lam1=1, density=0.2, rng=2).answers
kernels.set_kernel_path("numba")
out = dict(import_ldp_truth_s=t_import, numba_at_import=numba_at_import)
t = time.perf_counter(); import numba; out["import_numba_s"] = time.perf_counter() - t
for name, fit in [("DawidSkene", lambda: inf.DawidSkene(n_iter=2).fit(A)),
                  ("OneCoinDawidSkene", lambda: inf.OneCoinDawidSkene(n_iter=2).fit(A)),
                  ("MajorityVote", lambda: inf.MajorityVote().fit(A)),
                  ("CRH", lambda: inf.CRH(n_iter=2).fit(C)), ("GTM", lambda: inf.GTM(n_iter=2).fit(C))]:
    t = time.perf_counter(); fit(); out[name + "_first_s"] = time.perf_counter() - t
    t = time.perf_counter(); fit(); out[name + "_again_s"] = time.perf_counter() - t
print(json.dumps(out))
"""


def probe(cache_dir: str) -> dict:
    "One fresh process: import times and each aggregator's first fit (kernel compile or cache load) and second fit."
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", PROBE.format(K=K)], env=env, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def compile_table(repeats: int = 3) -> pd.DataFrame:
    "Cold compile (empty cache), then cached loads, each in a fresh process."
    rows = []
    for r in range(repeats):
        with tempfile.TemporaryDirectory() as cache:
            rows.append(dict(run="cold", load_1min=load(), **probe(cache)))
            rows.append(dict(run="cached", load_1min=load(), **probe(cache)))
        print(rows[-2:], flush=True)
    df = pd.DataFrame(rows)
    first = [c for c in df.columns if c.endswith("_first_s")]
    df["kernels_s"] = df[first].sum(1) - df[[c.replace("_first", "_again") for c in first]].sum(1)
    return df


COMPILE_NOTE = ("Each row is a fresh process with `NUMBA_CACHE_DIR` set to a new empty directory (`cold`), then a second "
                "process on that directory (`cached`). `import_ldp_truth_s`: `import ldp_truth.inference`; "
                "`numba_at_import`: whether that imported numba (it must not); `import_numba_s`: then `import numba`; "
                "`X_first_s`: the first fit of X on 1,250 answers with `LDP_TRUTH_KERNELS=numba` (compile or cache load "
                "of the kernels it uses, in this order: each loads only what the ones before it did not), `X_again_s`: "
                "the same fit again; `kernels_s` = Σ first − Σ again: the whole compile (cold) or load (cached).")


# ---- a whole fit in a fresh process -------------------------------------------------------------------------------
FRESH = r"""
import json, sys, time, numpy as np, pandas as pd, warnings
warnings.filterwarnings("ignore")
df = pd.read_parquet(sys.argv[1])
t = time.perf_counter()
if sys.argv[2] == "crowdkit":
    import crowdkit.aggregation as ck
    ck.DawidSkene(n_iter=10, tol=-np.inf).fit_predict(df)
elif sys.argv[2] == "nosparse":  # NumpyOnly's bincount steps, scipy.sparse never imported: a stub in its place
    import types
    stub = sys.modules["scipy.sparse"] = types.ModuleType("scipy.sparse")
    stub.issparse = lambda X: True  # _LocalEM: the NumPy path's plain products (no fused, compiled M-step)
    from ldp_truth import inference, kernels
    from ldp_truth.data import Answers
    from ldp_truth.inference import DawidSkene
    exec(sys.argv[3])  # bench_kernels' NumpyOnly and numpy_only_patches
    vars(inference).update(numpy_only_patches("bincount", stub))
    DawidSkene(n_iter=10, tol=0).fit_predict(df)
    assert not [m for m in sys.modules if m.startswith("scipy.sparse.")]
else:
    from ldp_truth.inference import DawidSkene
    from ldp_truth import kernels
    DawidSkene(n_iter=10, tol=0).fit_predict(df)
print(json.dumps(dict(seconds=time.perf_counter() - t,
                      path="crowdkit" if sys.argv[2] == "crowdkit" else "numba" if kernels._COMPILED else
                      "numpy-only" if sys.argv[2] == "nosparse" else "numpy",
                      code="" if sys.argv[2] == "crowdkit" else kernels.__file__)))
"""


SPLIT = r"""
import json, sys, time, numpy as np, pandas as pd, warnings
warnings.filterwarnings("ignore")
df = pd.read_parquet(sys.argv[1])
t_scipy = time.perf_counter()
import scipy.sparse
t0 = time.perf_counter()
from ldp_truth.inference import DawidSkene
from ldp_truth.data import Answers
t1 = time.perf_counter()
A = Answers.from_frame(df, kind="categorical")
from ldp_truth import inference
spent, saved = {}, {}
def timed(name, f):
    def run(*args, **kwargs):
        t = time.perf_counter()
        try: return f(*args, **kwargs)
        finally: spent[name] = spent.get(name, 0.0) + time.perf_counter() - t
    return run
for name in ("class_counts", "vote_shares", "onehot", "e_step", "observed_counts"):
    saved[name] = getattr(inference, name)
    setattr(inference, name, timed(name, saved[name]))
t2 = time.perf_counter()
DawidSkene(n_iter=10, tol=0).fit(A)
t3 = time.perf_counter()
vars(inference).update(saved)
fits = {}
for _ in range(3):
    for n in (1, 10):
        t = time.perf_counter(); DawidSkene(n_iter=n, tol=0).fit(A)
        fits[n] = min(fits.get(n, np.inf), time.perf_counter() - t)
it = (fits[10] - fits[1]) / 9
print(json.dumps(dict(scipy_sparse_s=t0 - t_scipy, import_s=t1 - t0, answers_s=t2 - t1, fit_s=t3 - t2, start_s=fits[1] - it,
                      iterations_s=10 * it, votes_s=spent["class_counts"] + spent["vote_shares"],
                      onehot_s=spent["onehot"], e_steps_s=spent["e_step"], counts_s=spent["observed_counts"])))
"""


def byte_compile(folder: Path) -> None:
    "Write the bytecode of the package in `folder`, as `pip install` does (PYTHONDONTWRITEBYTECODE=1 here)."
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder)], check=True)


def floor_table(n_answers: int, n_workers: int, rounds: int = 3) -> pd.DataFrame:
    "Where a fresh process's fit spends its time: imports, DataFrame → Answers, the fit; and, fitted again in that process, EM's start and its 10 iterations."
    df = simulate_frame(n_answers, n_workers)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "answers.parquet"
        df.to_parquet(path)
        for _ in range(rounds):
            out = subprocess.run([sys.executable, "-c", SPLIT, str(path)], check=True, capture_output=True, text=True,
                                 env=dict(os.environ, LDP_TRUTH_KERNELS="auto")).stdout
            rows.append(dict(answers=len(df), workers=n_workers, **json.loads(out.strip().splitlines()[-1]),
                             load_1min=load()))
    t = pd.DataFrame(rows)
    t["import_answers_fit_s"] = t[["scipy_sparse_s", "import_s", "answers_s", "fit_s"]].sum(1)
    t["first_fit_extra_s"] = t["fit_s"] - t["start_s"] - t["iterations_s"]
    return t.sort_values("import_answers_fit_s").head(1)


def fresh_table(n_answers: int, n_workers: int, rounds: int = 3, previous: Path | None = None) -> pd.DataFrame:
    "A 10-iteration fit from a DataFrame in a fresh process (imports of the fit included, data loading not), best of rounds."
    df = simulate_frame(n_answers, n_workers)
    fits = [("crowdkit", {}), ("ours, auto", {"LDP_TRUTH_KERNELS": "auto"}),
            ("ours, numba", {"LDP_TRUTH_KERNELS": "numba"}), ("ours, numpy", {"LDP_TRUTH_KERNELS": "numpy"})]
    if previous:  # the previous code first on sys.path (its ldp_truth unpacked in that folder)
        fits.append(("previous, auto", {"LDP_TRUTH_KERNELS": "auto", "PYTHONPATH": str(previous.resolve())}))
    fits.append(("no scipy.sparse, bincount", {"LDP_TRUTH_KERNELS": "numpy"}))
    steps = inspect.getsource(NumpyOnly) + inspect.getsource(numpy_only_patches)
    best, ran = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "answers.parquet"
        df.to_parquet(path)
        for _ in range(rounds):
            for name, env in fits:
                who = "crowdkit" if name == "crowdkit" else "nosparse" if name.startswith("no scipy") else "ours"
                out = subprocess.run([sys.executable, "-c", FRESH, str(path), who, steps], env=dict(os.environ, **env),
                                     check=True, capture_output=True, text=True, cwd=HERE).stdout
                r = json.loads(out.strip().splitlines()[-1])
                ran_previous = previous is not None and str(previous.resolve()) in r["code"]
                assert name.startswith("previous") == ran_previous, (name, r["code"])  # each ran the code it should
                best[name], ran[name] = min(best.get(name, np.inf), r["seconds"]), r["path"]
    rows = [dict(answers=len(df), workers=n_workers, fit=k, kernels=ran[k], seconds=v, speedup=best["crowdkit"] / v,
                 load_1min=load()) for k, v in best.items()]
    return pd.DataFrame(rows)


# ---- the NumPy path's E- and M-steps without scipy.sparse ----------------------------------------------------------
class NumpyOnly:
    "Dawid–Skene's E-step and M-step statistics without scipy.sparse: per-class `take` + `bincount` (no answer order), or row gathers + `np.add.reduceat` over the answers by task and by (worker, value)."

    def __init__(self, A: Answers, how: str):
        self.how, self.T, self.L = how, A.n_tasks, A.n_classes
        cols = A.worker.astype(np.intp)
        cols *= A.n_classes
        cols += A.value
        if how == "bincount":
            self.task, self.cols = A.task.astype(np.intp), cols
            return
        by_task, by_group = np.argsort(A.task, kind="stable"), np.argsort(cols, kind="stable")
        self.tcols, self.gtask = cols[by_task], A.task[by_group].astype(np.intp)
        self.answered, self.tstarts = self._starts(A.task, A.n_tasks)
        self.filled, self.gstarts = self._starts(cols, A.n_workers * A.n_classes)

    @staticmethod
    def _starts(key: np.ndarray, n: int) -> tuple:
        "Which of the n keys occur, and where each one's run starts in the sorted answers."
        ptr = np.zeros(n + 1, np.intp)
        np.cumsum(np.bincount(key, minlength=n), out=ptr[1:])
        some = ptr[1:] > ptr[:-1]
        return some, ptr[:-1][some]

    def e_step(self, log_conf: np.ndarray, log_prior: np.ndarray, out: np.ndarray) -> tuple:
        "As kernels.e_step: task posteriors into `out`, log-likelihood."
        W, K, L = log_conf.shape
        if self.how == "bincount":
            Bt = np.ascontiguousarray(log_conf.transpose(1, 0, 2)).reshape(K, W * L)  # (c, (w, z))
            for c in range(K):
                out[:, c] = np.bincount(self.task, np.take(Bt[c], self.cols), minlength=self.T)
        else:
            B = log_conf.transpose(0, 2, 1).reshape(W * L, K)  # rows (w, z)
            out[:] = 0.0
            out[self.answered] = np.add.reduceat(np.take(B, self.tcols, axis=0), self.tstarts, axis=0)
        out += log_prior
        return out, float(kernels.softmax_rows(out)[1].sum())

    def counts(self, P: np.ndarray, n_workers: int) -> np.ndarray:
        "As kernels.observed_counts: N[w, c, z]."
        K, L = P.shape[1], self.L
        if self.how == "bincount":
            Pt = np.ascontiguousarray(P.T)
            N = np.stack([np.bincount(self.cols, np.take(Pt[c], self.task), minlength=n_workers * L)
                          for c in range(K)])
            return N.reshape(K, n_workers, L).transpose(1, 0, 2)
        N = np.zeros((n_workers * L, K))
        N[self.filled] = np.add.reduceat(np.take(P, self.gtask, axis=0), self.gstarts, axis=0)
        return N.reshape(n_workers, L, K).transpose(0, 2, 1)


def numpy_only_patches(how: str, sp) -> dict:
    "What ldp_truth.inference's plain DawidSkene calls, replaced so that it runs on `NumpyOnly(how)` (`sp`: its scipy.sparse)."
    return dict(sp=sp, onehot=lambda w, t, v, W, T, K: NumpyOnly(Answers(w, t, v, n_workers=W, n_tasks=T, n_classes=K), how),
                e_step=lambda X, lc, lp, out=None: X.e_step(lc, lp, out),
                observed_counts=lambda X, P, W, out=None: X.counts(P, W))


def numpy_only_fits(how: str):
    "A context in which ldp_truth.inference's plain DawidSkene runs on `NumpyOnly(how)` instead of the CSR products."
    import contextlib, types
    import scipy.sparse
    from ldp_truth import inference
    shim = types.SimpleNamespace(**{k: getattr(scipy.sparse, k) for k in dir(scipy.sparse) if not k.startswith("__")})
    shim.issparse = lambda X: isinstance(X, NumpyOnly) or scipy.sparse.issparse(X)  # no fused (compiled) M-step
    patches = numpy_only_patches(how, shim)

    @contextlib.contextmanager
    def patched():
        saved = {k: getattr(inference, k) for k in patches}
        vars(inference).update(patches)
        try: yield
        finally: vars(inference).update(saved)
    return patched


def steps_table(sizes: list, rounds: int = 7) -> pd.DataFrame:
    "Start, E-step and M-step of the CSR products against the two NumPy-only formulations, interleaved, best of rounds."
    rows = []
    rng = np.random.default_rng(0)
    kernels.set_kernel_path("numpy")
    try:
        for n, W in sizes:
            A = Answers.from_frame(simulate_frame(n, W), kind="categorical")
            T, Kc = A.n_tasks, A.n_classes
            log_conf = np.log(rng.dirichlet(np.ones(Kc), size=(W, Kc)))
            log_prior = np.log(np.full(Kc, 1 / Kc))
            make = {"csr": lambda: kernels.onehot(A.worker, A.task, A.value, W, T, Kc),
                    "bincount": lambda: NumpyOnly(A, "bincount"), "reduceat": lambda: NumpyOnly(A, "reduceat")}
            X = {k: f() for k, f in make.items()}
            P = {k: np.empty((T, Kc)) for k in make}
            e = {"csr": lambda: kernels.e_step(X["csr"], log_conf, log_prior, out=P["csr"])}
            m = {"csr": lambda: kernels.observed_counts(X["csr"], P["csr"], W)}
            for k in ("bincount", "reduceat"):
                e[k] = lambda k=k: X[k].e_step(log_conf, log_prior, P[k])
                m[k] = lambda k=k: X[k].counts(P["csr"], W)
            S, buf = X["bincount"], np.empty(len(A.task))  # the gathers alone, into one reused buffer
            make["take_floor"] = make["bincount"]
            e["take_floor"] = lambda: [np.take(B, S.cols, out=buf) for B in
                                       np.ascontiguousarray(log_conf.transpose(1, 0, 2)).reshape(Kc, -1)]
            m["take_floor"] = lambda: [np.take(p, S.task, out=buf) for p in np.ascontiguousarray(P["csr"].T)]
            ll = {k: f()[1] for k, f in e.items() if k != "take_floor"}
            N = {k: f() for k, f in m.items() if k != "take_floor"}
            best, before = {}, load()
            for _ in range(rounds):
                for k in make:
                    for step, f in (("start", make[k]), ("e", e[k]), ("m", m[k])):
                        t = time.perf_counter(); f(); best[k, step] = min(best.get((k, step), np.inf), time.perf_counter() - t)
            for k in make:
                total = best[k, "start"] + 10 * (best[k, "e"] + best[k, "m"])
                csr_total = best["csr", "start"] + 10 * (best["csr", "e"] + best["csr", "m"])
                same = k in ll  # the floor's gathers compute no posteriors
                rows.append(dict(answers=n, workers=W, steps=k, start_s=best[k, "start"], e_step_s=best[k, "e"],
                                 m_step_s=best[k, "m"], start_10_iter_s=total, vs_csr=total / csr_total,
                                 p_max_diff=float(np.abs(P[k] - P["csr"]).max()) if same else np.nan,
                                 ll_rel_diff=abs(ll[k] - ll["csr"]) / abs(ll["csr"]) if same else np.nan,
                                 n_rel_diff=float(np.abs(N[k] - N["csr"]).max() / np.abs(N["csr"]).max())
                                 if same else np.nan, load_1min=f"{before}→{load()}"))
                print(rows[-1], flush=True)
    finally:
        kernels.set_kernel_path(None)
    return pd.DataFrame(rows)


def shared_sets_table(rounds: int = 5) -> pd.DataFrame:
    "Plain DawidSkene on the shared sets, CSR products vs NumPy-only: labels and log-likelihoods, and 10-iteration fits timed (interleaved, best of rounds)."
    from ldp_truth.data import list_datasets, load_dataset
    ways = {"csr": None, "bincount": numpy_only_fits("bincount"), "reduceat": numpy_only_fits("reduceat")}

    def fit(way, **kw):
        ctx = ways[way]
        if ctx is None: return DawidSkene(**kw).fit(A)
        with ctx(): return DawidSkene(**kw).fit(A)

    rows = []
    kernels.set_kernel_path("numpy")
    try:
        for name in list_datasets():
            A = load_dataset(name).answers
            if A.kind != "categorical": continue
            ref = fit("csr")
            best, before = {}, load()
            for _ in range(rounds):
                for way in ways:
                    t = time.perf_counter(); fit(way, n_iter=10, tol=0); best[way] = min(best.get(way, np.inf), time.perf_counter() - t)
            for way in ("bincount", "reduceat"):
                got = fit(way)
                h, r = got.log_likelihood_, ref.log_likelihood_
                rows.append(dict(dataset=name, answers=A.n_answers, workers=A.n_workers, steps=way,
                                 same_labels=bool((got.labels_ == ref.labels_).all()) and len(h) == len(r),
                                 ll_rel_diff=float(np.max(np.abs(h - r) / np.abs(r))) if len(h) == len(r) else np.nan,
                                 csr_10_iter_s=best["csr"], fit_10_iter_s=best[way], vs_csr=best[way] / best["csr"],
                                 load_1min=f"{before}→{load()}"))
                print(rows[-1], flush=True)
    finally:
        kernels.set_kernel_path(None)
    return pd.DataFrame(rows)


STEPS_NOTE = ("The NumPy path's statistics without scipy.sparse (bench_kernels' `NumpyOnly`, not library code): "
              "`bincount` = per class a `take` of the (W·L) log table (E-step) or of the posteriors (M-step) and a "
              "`bincount` by task or by (worker, value), no answer order; `reduceat` = the answers ordered once by "
              "task and by (worker, value) (stable argsorts), (n, K) row gathers and `np.add.reduceat` over the runs; "
              "`csr` = the library's NumPy path (`onehot`, `e_step`, `observed_counts`: SciPy products in task blocks "
              "on 2 threads); `take_floor` = the per-class `take`s alone (into one reused buffer, no sum): what any formulation that gathers each answer's K values with NumPy pays before it adds anything. Each step the best of 7, the formulations interleaved in one process; "
              "`start_10_iter_s` = start + 10 × (E + M), `vs_csr` its ratio to csr's. `p_max_diff`, `ll_rel_diff`, "
              "`n_rel_diff`: the gaps to csr's posteriors, log-likelihood and counts (relative to the largest count).")
SHARED_NOTE = ("Plain `DawidSkene` on each categorical shared set, its `onehot`, `e_step` and `observed_counts` "
               "replaced by `NumpyOnly`'s (NumPy kernels): `same_labels` and `ll_rel_diff` (the largest relative gap "
               "over the log-likelihood history) against the CSR fit at the defaults (100 iterations, tol 1e-6); "
               "`csr_10_iter_s`, `fit_10_iter_s`: a 10-iteration fit, best of 5, interleaved.")


# ---- continuous aggregators ---------------------------------------------------------------------------------------
def continuous_table(n_workers: int, n_tasks: int, rounds: int = 3) -> pd.DataFrame:
    "CRH() and GTM() on both paths against the previous squared-loss defaults (bench_continuous's copy), interleaved."
    from bench_continuous import old_crh, old_gtm
    from ldp_truth.simulate import continuous_workers
    A = continuous_workers(n_workers, n_tasks, lam1=1, density=0.01, rng=20240601).answers
    fits = {"previous CRH(squared)": lambda: old_crh(A), "previous GTM": lambda: old_gtm(A),
            "CRH(), numpy": on_path("numpy", 2, lambda: CRH().fit(A)),
            "CRH(), numba": on_path("numba", 2, lambda: CRH().fit(A)),
            "GTM(), numpy": on_path("numpy", 2, lambda: GTM().fit(A)),
            "GTM(), numba": on_path("numba", 2, lambda: GTM().fit(A))}
    for f in fits.values(): f()
    best = {}
    for _ in range(rounds):
        for k, f in fits.items():
            t = time.perf_counter(); f(); best[k] = min(best.get(k, np.inf), time.perf_counter() - t)
    same = {a: np.array_equal(on_path("numpy", 2, lambda: a().fit(A))().labels_,
                              on_path("numba", 2, lambda: a().fit(A))().labels_, equal_nan=True) for a in (CRH, GTM)}
    prev = {"CRH": best["previous CRH(squared)"], "GTM": best["previous GTM"]}
    rows = [dict(answers=A.n_answers, fit=k, seconds=v, vs_previous_default=v / prev[k[:3]] if k[:3] in prev else np.nan,
                 same_as_numpy=same.get(CRH if k.startswith("CRH") else GTM) if "numba" in k else "", load_1min=load())
            for k, v in best.items()]
    return pd.DataFrame(rows)


# ---- Dask --------------------------------------------------------------------------------------------------------
def dask_table(n_answers: int) -> pd.DataFrame:
    "Seconds per DS iteration on a LocalCluster (2 processes, 4 Parquet partitions), NumPy vs numba partitions."
    from bench_scale import dask_tables
    from dask.distributed import Client, LocalCluster
    rows = []
    for path in ("numpy", "numba"):
        os.environ["LDP_TRUTH_KERNELS"] = path        # the worker processes inherit it
        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as c:
            _, by_size = dask_tables(c, [n_answers], [4], 1000, 5)
        rows += [dict(kernels=path, load_1min=load(), **r) for r in by_size.to_dict("records")]
        print(rows[-1], flush=True)
    os.environ.pop("LDP_TRUTH_KERNELS")
    A = Answers.from_frame(simulate_frame(n_answers, 1000))  # the same answers, in memory
    ds = lambda n: DawidSkene(n_iter=n, tol=0).fit(A)
    t = interleaved_marginal({"numpy": on_path("numpy", 2, ds), "numba": on_path("numba", 2, ds)}, 5)
    rows += [dict(kernels=f"{k}, in memory", load_1min=load(), answers=A.n_answers, s_per_iter=v)
             for k, v in t.items()]
    return pd.DataFrame(rows)


def section(title: str, table: pd.DataFrame, note: str = "") -> str:
    "A Markdown section."
    return f"## {title}\n\n{markdown(table)}\n\n{note}\n\n"


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes (smoke test), prints only")
    p.add_argument("--only", choices=("workers", "compile", "fresh", "steps", "continuous", "dask"), nargs="*")
    p.add_argument("--big", type=int, help="run bench_scale's one-machine stages on this many answers (numba path)")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--previous", type=Path, help="fresh: also time the code unpacked in this folder "
                   "(`git archive COMMIT ldp_truth | tar -x -C DIR`), interleaved")
    a = p.parse_args(argv)
    out = a.out or (None if a.quick else DEFAULT_OUT)
    text = out.read_text() if out and out.exists() else (
        f"# bench_kernels ({platform.machine()}, {os.cpu_count()} cores, numba {numba.__version__})\n\n")
    if a.big:
        from bench_scale import one_machine_section
        os.environ["LDP_TRUTH_KERNELS"] = "numba"
        text = replace_section(text, one_machine_section(a.big))
    only = a.only or ([] if a.big else ["workers", "compile", "fresh", "steps", "continuous", "dask"])
    n_mem, counts, n_iter = (20_000, [100, 2_000], 3) if a.quick else (2_000_000, [1_000, 20_000, 200_000], 10)
    stamp = f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC"
    if "workers" in only:
        text = replace_section(text, section(
            f"Dawid–Skene seconds per iteration vs workers ({n_mem:,} answers, K={K}; {stamp})",
            workers_table(n_mem, counts, n_iter), WORKERS_NOTE.format(n=n_iter, m=n_iter - 1)), "## Dawid–Skene")
    if "compile" in only:
        text = replace_section(text, section(f"Compile and load ({stamp})", compile_table(1 if a.quick else 3),
                                             COMPILE_NOTE), "## Compile")
    if "fresh" in only:
        n, W = (20_000, 100) if a.quick else (1_000_000, 1_000)
        import ldp_truth
        for folder in [Path(ldp_truth.__file__).parent] + ([a.previous] if a.previous else []):
            byte_compile(folder)
        text = replace_section(text, section(f"A whole 10-iteration fit in a fresh process ({stamp})", fresh_table(n, W, previous=a.previous),
                                             "Each fit in its own new process, from a DataFrame read from Parquet "
                                             "(reading not timed; the library's imports, the kernels' cache load and "
                                             "`fit_predict` timed), best of 3; ldp_truth byte-compiled first, as an "
                                             "installed package is."), "## A whole")
        text = replace_section(text, section(f"Where the fresh fit's time goes ({stamp})", floor_table(n, W),
                                             "One fresh process (`auto` kernels), the best of 3 by their sum: "
                                             "`scipy_sparse_s` = `import scipy.sparse` (pandas already loaded; the "
                                             "NumPy path's one-hot matrix needs it), `import_s` = then `import "
                                             "ldp_truth.inference`, `answers_s` = `Answers.from_frame`, `fit_s` = "
                                             "the 10-iteration fit; then, in that process, fits of 1 and 10 "
                                             "iterations (best of 3) split a fit into EM's start (`start_s`: votes, "
                                             "one-hot matrix, first counts) and `iterations_s` (10 × the marginal "
                                             "iteration); `first_fit_extra_s` = `fit_s` − both: what the first fit "
                                             "in a process pays beyond a repeated one (fresh memory's page faults, "
                                             "the thread pool's start). Within the first fit: `votes_s` = "
                                             "`class_counts` + `vote_shares` (the start's votes), `onehot_s` (the CSR "
                                             "matrix), `e_steps_s` (its 10 E-steps), `counts_s` (its 11 "
                                             "`observed_counts`), each summed over its calls."), "## Where")
    if "steps" in only:
        sizes = [(20_000, 100)] if a.quick else [(1_000_000, 1_000), (1_000_000, 20_000)]
        text = replace_section(text, section(f"The NumPy path's steps without scipy.sparse ({stamp})", steps_table(sizes),
                                             STEPS_NOTE), "## The NumPy path's steps")
        if not a.quick:
            text = replace_section(text, section(f"NumPy-only steps on the shared sets ({stamp})", shared_sets_table(),
                                                 SHARED_NOTE), "## NumPy-only steps on the shared sets")
    if "continuous" in only:
        W, T = (100, 10_000) if a.quick else (1_000, 100_000)
        text = replace_section(text, section(f"Continuous aggregators ({stamp})", continuous_table(W, T),
                                             "`continuous_workers(1000, 100000, lam1=1, density=0.01)`; best of 3, "
                                             "interleaved; `previous`: bench_continuous's copy of the old "
                                             "squared-loss defaults."), "## Continuous")
    if "dask" in only:
        text = replace_section(text, section(f"Dask partitions ({stamp})", dask_table(20_000 if a.quick else 10_000_000),
                                             "bench_scale's Dask measure (Parquet, 4 partitions, LocalCluster of 2 "
                                             "one-thread processes) with the partitions' kernels chosen by "
                                             "`LDP_TRUTH_KERNELS`; `in memory`: the same answers fitted in this "
                                             "process on 2 threads, (T(5) − T(1)) / 4, best of 3."), "## Dask")
    print(text)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)


if __name__ == "__main__":
    main()
