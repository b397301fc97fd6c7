"""The aggregators (server side): one module per chapter, every public name re-exported here.

`from ldp_truth.inference import DawidSkene` is all a user needs; the chapters are
`core` (the `Aggregator` contract, majority and weighted vote), `dawid_skene` (Dawid–Skene,
one-coin, two-layer and Wang & Xu's private Dawid–Skene), `hierarchy` (the hierarchical and
community priors), `continuous` (mean, median, CRH, GTM, confidence-weighted mean),
`glad_mace` (GLAD, MACE), `votes` (Wawa, zero-based skill, gold majority vote, KOS, M-MSR),
`incremental` (`partial_fit`) and `confidence` (estimated accuracy, calibration, planning).
This file is written by hand: it only gathers the chapters' `__all__` (tools/test_style.py
checks that it misses none).
"""

from . import confidence, continuous, core, dawid_skene, glad_mace, hierarchy, incremental, votes
from .confidence import *  # noqa: F401,F403
from .continuous import *  # noqa: F401,F403
from .core import *  # noqa: F401,F403
from .dawid_skene import *  # noqa: F401,F403
from .glad_mace import *  # noqa: F401,F403
from .hierarchy import *  # noqa: F401,F403
from .incremental import *  # noqa: F401,F403
from .votes import *  # noqa: F401,F403

CHAPTERS = (core, dawid_skene, hierarchy, continuous, glad_mace, votes, incremental, confidence)
__all__ = [name for chapter in CHAPTERS for name in chapter.__all__]
