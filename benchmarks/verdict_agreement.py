"""Does the default report name the same best pipeline as `--full`? Share of (dataset, ε) cells that agree.

Reads two report folders' sweep.csv (the default's and --full's), takes in each the pipeline (mechanism ·
aggregator) with the best mean score per (dataset, ε), and counts the cells where both name the same one.
Run: `python benchmarks/verdict_agreement.py DEFAULT_DIR FULL_DIR` -> benchmarks/results/verdict_agreement.md
"""
import sys
from pathlib import Path

import pandas as pd

from ldp_truth.experiments import HIGHER_IS_BETTER

OUT = Path(__file__).parent / "results" / "verdict_agreement.md"


def best(sweep: pd.DataFrame) -> pd.Series:
    "(dataset, ε) → the pipeline with the best mean score over trials."
    m = sweep.groupby(["dataset", "epsilon", "mechanism", "aggregator", "metric"]).value.mean().reset_index()
    m["sign"] = [1 if HIGHER_IS_BETTER[k] else -1 for k in m.metric]
    m = m.assign(key=m.value * m.sign).sort_values(  # ties broken by name, the same way in both grids
        ["key", "mechanism", "aggregator"], ascending=[False, True, True], kind="stable"
    )
    top = m.groupby(["dataset", "epsilon"]).head(1).set_index(["dataset", "epsilon"])
    return (top.mechanism + " · " + top.aggregator).sort_index()


if __name__ == "__main__":
    default, full = (pd.read_csv(Path(p) / "sweep.csv") for p in sys.argv[1:3])
    a, b = best(default), best(full)
    both = pd.DataFrame({"default": a, "full": b}).dropna()
    both["agree"] = both["default"] == both["full"]
    share = both.agree.mean()
    OUT.write_text(
        f"# Default vs --full: best pipeline per (dataset, ε)\n\n"
        f"{both.agree.sum()} of {len(both)} cells agree ({share:.1%}).\n\n"
        + both.reset_index().to_csv(index=False)
    )
    print(OUT.read_text()[:400])
