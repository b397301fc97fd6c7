"""How often is GLAD+channel the best pipeline? The share of (dataset, ε) cells whose verdict the default grid
(without GLAD+channel) keeps, measured on a small sweep (ε 0.1, 1, 8 × 2 trials, every mechanism and aggregator).
Run: `nice .venv/bin/python benchmarks/glad_wins.py` -> benchmarks/results/glad_wins.md
"""
import subprocess
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))
from verdict_agreement import best  # noqa: E402

from ldp_truth import registry  # noqa: E402
from ldp_truth.report import FULL_ONLY, report_datasets, report_grid, run_sweep  # noqa: E402

OUT = Path(__file__).parent / "results" / "glad_wins.md"

if __name__ == "__main__":
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    datasets, _, _ = report_datasets()
    full = run_sweep(datasets, (0.1, 1.0, 8.0), 2, full=True, n_jobs=2, progress=False)
    default = full[~full.aggregator.isin(list(FULL_ONLY))]
    both = pd.DataFrame({"default": best(default), "full": best(full)}).dropna()
    both["agree"] = both["default"] == both["full"]
    glad = both.full.str.endswith(tuple(FULL_ONLY))
    OUT.write_text(
        f"# Does the default grid keep the full grid's verdict?\n\nε (0.1, 1, 8) × 2 trials, every mechanism; "
        f"load at start `{load}`.\n\n{both.agree.sum()} of {len(both)} (dataset, ε) cells name the same best "
        f"pipeline without {', '.join(FULL_ONLY)} ({both.agree.mean():.1%}); "
        f"{int(glad.sum())} cells' best is {', '.join(FULL_ONLY)}.\n\n"
        + both.reset_index().to_csv(index=False)
    )
    print(OUT.read_text()[:600])
