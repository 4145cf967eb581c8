"""The trainable linear model: float weights (centipawns, middlegame then endgame) and, for feature rows, the
white-view win probability and its gradient; conversion to and from the engine's integer `Weights`.

For feature counts f and phase p the model's score is cp = (p * f.mg + (PHASE_MAX - p) * f.eg) / PHASE_MAX (white's
view; the engine rounds the same blend to integers) and its value is win_probability(cp) (lichess's scale,
mpcmc_engine.score_scale). Gradients are taken with respect to the weights in logistic units (u = LICHESS_SCALE * w),
so dV/du = V (1 - V) * f * taper fraction.
"""

import numpy as np

from mpcmc_engine.eval.features import LAYOUT, N_FEATURES, PHASE_MAX, block_offsets
from mpcmc_engine.eval.weights import WEIGHT_LIMIT, Weights
from mpcmc_engine.score_scale import LICHESS_SCALE, win_probabilities


def float_weights(weights: Weights) -> np.ndarray:
    """The float vector [mg, eg] (length 2 * N_FEATURES) of integer `weights`."""
    return np.concatenate([weights.mg, weights.eg]).astype(np.float64)


def integer_weights(vector: np.ndarray, provenance: str) -> Weights:
    """The engine's `Weights` nearest to the float vector [mg, eg]."""
    rounded = np.rint(vector).astype(np.int64)
    return Weights(rounded[:N_FEATURES].copy(), rounded[N_FEATURES:].copy(), provenance)


def taper_fractions(phases: np.ndarray) -> np.ndarray:
    """(rows, 2) array of the middlegame and endgame shares of each phase."""
    middlegame = np.asarray(phases, dtype=np.float64) / PHASE_MAX
    return np.stack([middlegame, 1.0 - middlegame], axis=1)


def centipawns(vector: np.ndarray, counts: np.ndarray, phases: np.ndarray) -> np.ndarray:
    """White-view scores of feature rows `counts` (rows, N_FEATURES) at `phases` under float weights `vector`."""
    shares = taper_fractions(phases)
    counts = counts.astype(np.float64)
    return shares[:, 0] * (counts @ vector[:N_FEATURES]) + shares[:, 1] * (counts @ vector[N_FEATURES:])


def values_and_gradients(vector: np.ndarray, counts: np.ndarray, phases: np.ndarray):
    """(values, gradients): win probabilities of the rows, shape (rows,), and their gradients with respect to the
    weights in logistic units, shape (rows, 2 * N_FEATURES)."""
    values = win_probabilities(centipawns(vector, counts, phases))
    slope = values * (1.0 - values)
    shares = taper_fractions(phases) * slope[:, None]
    counts = counts.astype(np.float64)
    gradients = np.concatenate([counts * shares[:, :1], counts * shares[:, 1:]], axis=1)
    return values, gradients


def frozen_mask(blocks) -> np.ndarray:
    """The boolean mask over [mg, eg] of the weights of the named feature blocks (eval/features.py LAYOUT names, both
    phases); raise ValueError naming a block that does not exist."""
    offsets = block_offsets()
    mask = np.zeros(2 * N_FEATURES, dtype=bool)
    for name in blocks:
        if name not in offsets:
            raise ValueError(f"--freeze: no feature block {name!r} (blocks: {', '.join(n for n, _ in LAYOUT)})")
        start, size = offsets[name]
        mask[start:start + size] = True
        mask[N_FEATURES + start:N_FEATURES + start + size] = True
    return mask


def apply_step(vector: np.ndarray, step_logistic: np.ndarray) -> np.ndarray:
    """The weights after a step given in logistic units (converted to centipawns), each kept within
    +-WEIGHT_LIMIT so that a diverging run still writes weights the engine loads."""
    return np.clip(vector + step_logistic / LICHESS_SCALE, -WEIGHT_LIMIT, WEIGHT_LIMIT)
