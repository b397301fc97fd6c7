"""`make run` on a fresh clone, as a new user runs it: wall and CPU time of the install and of the report.

Clones a branch of this repository (`--branch`, default: the current one; `--label` names the row, e.g. before /
after) into a temporary folder and runs, there, in a minimal environment (`env -i`: PATH, a new empty HOME,
LDP_TRUTH_DATA, and the machine's PIP_* settings, which say where packages come from):

1. `make .venv/.installed-run`: the venv and `pip install -e .` (what `make run` installs first);
2. `make run`: the report (the venv is there now, so this is the report alone).

CPU is the children's user + sys time (`resource.getrusage`). Appends one row per run to
benchmarks/results/make_run.csv with the load averages at the start and end: the machine is shared (2 cores, other
jobs beside), so wall time carries the load; CPU time much less.

Run: `nice .venv/bin/python benchmarks/bench_make_run.py [--branch B] [--label L]`
"""
import argparse
import datetime
import os
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "make_run.csv"


def load() -> str:
    "The load averages (1, 5, 15 min) now."
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def timed(args: list, cwd: Path, env: dict) -> tuple:
    "(wall s, CPU s of the children, the last line of output) of a command; raises if it fails."
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, (done.stdout.strip().splitlines() or [""])[-1]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--branch", default=None, help="branch to clone (default: the current one)")
    p.add_argument("--label", default="", help="a name for the row, e.g. before / after")
    a = p.parse_args()
    branch = a.branch or subprocess.run(["git", "rev-parse", "--abbrev-ref", "HEAD"], cwd=ROOT,
                                        capture_output=True, text=True, check=True).stdout.strip()
    tmp = Path(tempfile.mkdtemp(prefix="bench_make_run."))
    clone, home = tmp / "clone", tmp / "home"
    home.mkdir()
    subprocess.run(["git", "clone", "--quiet", "--branch", branch, str(ROOT), str(clone)], check=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True,
                            text=True, check=True).stdout.strip()
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home),
           "LDP_TRUTH_DATA": os.environ.get("LDP_TRUTH_DATA", "/work/shared/datasets")}
    env.update({k: v for k, v in os.environ.items() if k.startswith("PIP_")})
    row = dict(date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               label=a.label, branch=branch, commit=commit, load_start=load())
    install_wall, install_cpu, _ = timed(["make", ".venv/.installed-run"], clone, env)
    row.update(install_wall_s=round(install_wall, 1), install_cpu_s=round(install_cpu, 1),
               load_after_install=load())
    report_wall, report_cpu, last = timed(["make", "run"], clone, env)
    venv_mb = sum(f.stat().st_size for f in (clone / ".venv").rglob("*") if f.is_file()) / 2**20
    row.update(report_wall_s=round(report_wall, 1), report_cpu_s=round(report_cpu, 1),
               total_wall_s=round(install_wall + report_wall, 1),
               total_cpu_s=round(install_cpu + report_cpu, 1), venv_mb=round(venv_mb),
               load_end=load(), last_line=last)
    print(row)
    table = pd.concat([pd.read_csv(OUT), pd.DataFrame([row])]) if OUT.exists() else pd.DataFrame([row])
    table.to_csv(OUT, index=False)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
