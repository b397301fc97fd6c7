"""The LDP mechanisms (client side): one module per chapter, every public name re-exported here.

`from ldp_truth.mechanisms import RandomizedResponse` is all a user needs; the chapters are `core`
(the `Mechanism` contract, the ε formulas, the randomness, randomized response, one- and two-layer
flipping) and `numeric` (Laplace, Gaussian with exponential variance, matrix factorisation,
geometric). The spec that declares a deployment is `ldp_truth.spec`, which imports this package
(never the reverse). This file is written by hand: it only gathers the chapters' `__all__`
(tools/test_style.py checks that it misses none).
"""

from . import core, numeric
from .core import *  # noqa: F401,F403
from .numeric import *  # noqa: F401,F403

CHAPTERS = (core, numeric)
__all__ = [name for chapter in CHAPTERS for name in chapter.__all__]
