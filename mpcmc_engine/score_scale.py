"""The one conversion between centipawns and win probability: a logistic curve, P = 1 / (1 + exp(-scale * cp)).

`scale` is per centipawn. The engine's values (MPC-MC, MCTS, the trainers) use LICHESS_SCALE, lichess's constant
(+100 cp ~ 0.59, +300 cp ~ 0.75); a caller with another curve (the network's output units, the UCI WDL model) passes
its own scale. The exponent is capped at EXPONENT_CAP, so exp stays finite; that changes no probability beyond the
300th decimal (|scale * cp| > 700 is over 190,000 cp on lichess's scale).

Standard library only (the UCI layer imports it before `uciok`; numpy only inside win_probabilities), and plain
enough for numba: compiled code uses `jit(signature)(win_probability)` (search/mcts_tree.py,
training/network_model.py), so the formula is written here once for Python, numpy and numba.
"""

import math

LICHESS_SCALE = 0.00368208
EXPONENT_CAP = 700.0
CENTIPAWN_LIMIT = 10000  # centipawns_of's range: +-CENTIPAWN_LIMIT


def win_probability(centipawns, scale=LICHESS_SCALE):
    """Win probability (0..1) of one centipawn score (a float) on the logistic curve of `scale` per centipawn."""
    return 1.0 / (1.0 + math.exp(min(EXPONENT_CAP, -scale * centipawns)))


def win_probabilities(centipawns, scale=LICHESS_SCALE):
    """win_probability of each of `centipawns` (a number or any array-like, taken as float64), as a numpy array."""
    import numpy as np  # here, not above: the UCI layer imports this module before `uciok`

    return 1.0 / (1.0 + np.exp(np.minimum(-scale * np.asarray(centipawns, dtype=np.float64), EXPONENT_CAP)))


def centipawns_of(probability: float, scale: float = LICHESS_SCALE) -> int:
    """The centipawn score of a win probability (the inverse of win_probability), rounded and clamped to
    +-CENTIPAWN_LIMIT."""
    if probability <= 0.0:
        return -CENTIPAWN_LIMIT
    if probability >= 1.0:
        return CENTIPAWN_LIMIT
    return max(-CENTIPAWN_LIMIT, min(CENTIPAWN_LIMIT, round(-math.log(1.0 / probability - 1.0) / scale)))
