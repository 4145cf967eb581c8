"""The trainer's one value scale: win probability for white, a logistic of centipawns.

P(white wins) = 1 / (1 + exp(-SCALE * cp)), with cp the evaluation from white's view and SCALE the lichess constant
(mpcmc_engine.mpcmc.values.LICHESS_SCALE = 0.00368208 per centipawn: +100 cp ~ 0.59, +300 cp ~ 0.75). Final positions
take the game's result: 1 (white won), 0.5 (draw), 0 (black won).
"""

import numpy as np

from mpcmc_engine.mpcmc.values import LICHESS_SCALE

SCALE = LICHESS_SCALE
RESULT_VALUES = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}


def win_probability(centipawns):
    """White's win probability of white-view centipawn scores (a float or a numpy array); the exponent is capped at
    700 (exp stays finite), which changes no probability beyond the 300th decimal."""
    return 1.0 / (1.0 + np.exp(np.minimum(-SCALE * np.asarray(centipawns, dtype=np.float64), 700.0)))


def result_value(result: str) -> float:
    """The value of a PGN result string for white; raise ValueError for an unfinished game ('*') or anything else."""
    if result not in RESULT_VALUES:
        raise ValueError(f"no game result ({result!r})")
    return RESULT_VALUES[result]
