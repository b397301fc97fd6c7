"""The collection server (`ldp-truth collect`) under load, and killed under load.

Throughput: sustained acknowledged submissions per second with 100 concurrent clients (threads,
one keep-alive connection each; one new worker's five answers per request, CSV, as the task page
sends them), for `synchronous=FULL` (fsync at every commit, the default) and `NORMAL` (no fsync:
survives a killed process, not a power cut), each with group commit (up to 256 waiting requests per
transaction, the server's way) and with one transaction per request (`GroupCommit`'s `most=1`, set
in the server process by this script only), interleaved, `--repeats` runs of `--seconds` each. The
clients run in this process and the server in its own, on the same machine: the numbers are for the
pair, and the load average is written beside each run.

Kill test: `--kills` rounds of load (16 clients), `kill -9` of the server mid-load, restart on the
same database, then every acknowledged request must be present exactly once with its labels, no
request partially present, nothing extra; half of the rounds with FULL and half with NORMAL, to show
what a process kill needs. Run `python benchmarks/bench_collect.py` (writes
benchmarks/results/collect.csv, one row per run) or `--quick` (fewer, shorter runs, printed only).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import pandas as pd

import ldp_truth.collect as collect
from ldp_truth.cli_common import make_spec
from ldp_truth.collect import kill_round, load, running_server

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "collect.csv"
MODES = ("FULL", "NORMAL")
GROUPS = (256, 1)  # the most requests in one transaction: the server's default, and one each
SERVER = collect._CLI


def per_commit(most: int) -> None:
    "Servers started from now on commit at most `most` requests together."
    patch = f"import ldp_truth.collect as c; c.GroupCommit.__init__.__defaults__ = ({most},); "
    collect._CLI = patch + SERVER


def throughput(spec_path: Path, spec: dict, folder: Path, mode: str, most: int, clients: int,
               seconds: float, run: int) -> dict:
    "One throughput run on a new database: acknowledged requests (and answers) per second."
    per_commit(most)
    with running_server(spec_path, folder / f"load-{mode}-{most}-{run}.sqlite", "--synchronous",
                        mode) as (_, port):
        t = time.perf_counter()
        sent = load(port, spec, clients, seconds)
        elapsed = time.perf_counter() - t
    acked = sum(ok for _, _, ok in sent)
    assert acked == len(sent), f"{len(sent) - acked} requests refused or failed under load"
    return {"measure": "throughput", "synchronous": mode, "group": most, "run": run,
            "clients": clients,
            "seconds": round(elapsed, 2), "acknowledged": acked,
            "submissions_per_s": round(acked / elapsed, 1),
            "answers_per_s": round(5 * acked / elapsed, 1), "load1": os.getloadavg()[0]}


def kill(spec_path: Path, folder: Path, mode: str, run: int) -> dict:
    "One kill -9 round (group commit, as served): the verdict's counts."
    per_commit(GROUPS[0])
    verdict = kill_round(spec_path, folder / f"kill-{mode}-{run}.sqlite", "--synchronous", mode,
                         clients=16, seconds=1.5)
    return {"measure": "kill -9", "synchronous": mode, "group": GROUPS[0], "run": run,
            "clients": 16, **verdict,
            "load1": os.getloadavg()[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="2 repeats of 3 s, 4 kills, print only")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.repeats, args.kills = 3.0, 2, 4
    spec = make_spec("rr", classes=["cat", "dog", "bird"], epsilon=1.0, max_answers=20,
                     project="bench-collect")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        spec_path = folder / "spec.json"
        spec_path.write_text(json.dumps(spec))
        settings = [(mode, most) for most in GROUPS for mode in MODES]
        for run in range(args.repeats):
            for mode, most in settings if run % 2 == 0 else settings[::-1]:  # interleaved
                rows.append(throughput(spec_path, spec, folder, mode, most, args.clients,
                                       args.seconds, run))
                print(rows[-1], flush=True)
        for run in range(args.kills):
            rows.append(kill(spec_path, folder, MODES[run % 2], run))
            print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    wrong = table.filter(["missing", "partial", "extra", "doubled", "resent_not_unchanged"])
    print(f"kill -9 rounds with anything missing, partial, extra or doubled: "
          f"{int((wrong.fillna(0).sum(axis=1) > 0).sum())} of {args.kills}")
    if not args.quick:
        args.out.parent.mkdir(exist_ok=True)
        table.to_csv(args.out, index=False)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
