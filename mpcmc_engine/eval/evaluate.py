"""The evaluation the search calls, linear or neural, from one int64 *evaluation array*.

Slot 0 of the array is its kind. KIND_LINEAR: the packed weights of mpcmc_engine.eval.weights.Weights.packed() follow
(middlegame weights at [LINEAR_BASE, LINEAR_BASE + N_FEATURES), endgame weights after them), and the score is the dot
product of feature counts and weights computed without a count array; it equals, by construction and by test, the dot
product of mpcmc_engine.eval.features.extract_features with the same weights, tapered, from the side to move's view.
KIND_NETWORK: the network of mpcmc_engine.eval.network_eval follows.
"""

import numpy as np

from mpcmc_engine.bitboard.constants import KING, PAWN, ST_SIDE, U1, WHITE
from mpcmc_engine.eval.features import (
    F_SIDE_TERMS, F_TEMPO, N_FEATURES, N_SIDE_TERMS, game_phase, material_index, pst_index, side_terms, taper,
)
from mpcmc_engine.eval.network import Network
from mpcmc_engine.eval.network_eval import evaluate_network, network_array
from mpcmc_engine.eval.weights import Weights
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import lsb

KIND_LINEAR = 0
KIND_NETWORK = 1
LINEAR_BASE = 1


def evaluation_array(evaluation) -> np.ndarray:
    """The evaluation array of `evaluation`: linear Weights or a Network."""
    if isinstance(evaluation, Network):
        return network_array(evaluation, KIND_NETWORK)
    if isinstance(evaluation, Weights):
        return np.concatenate([np.array([KIND_LINEAR], dtype=np.int64), evaluation.packed()])
    raise TypeError(f"not an evaluation: {type(evaluation).__name__}")


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64[::1])")
def evaluate_linear(tab, bb, st, params):
    """The linear evaluation (params of KIND_LINEAR) in centipawns from the side to move's view."""
    mg = 0
    eg = 0
    mg_base = LINEAR_BASE
    eg_base = LINEAR_BASE + N_FEATURES
    for colour in range(2):
        sign = 1 - 2 * colour
        for piece_type in range(PAWN, KING + 1):
            material = material_index(piece_type)
            pieces = bb[colour * 8 + piece_type]
            while pieces:
                square = lsb(pieces)
                pst = pst_index(piece_type, colour, square)
                mg += sign * (params[mg_base + material] + params[mg_base + pst])
                eg += sign * (params[eg_base + material] + params[eg_base + pst])
                pieces &= pieces - U1
        terms = side_terms(tab, bb, colour)
        for i in range(N_SIDE_TERMS):
            mg += sign * terms[i] * params[mg_base + F_SIDE_TERMS + i]
            eg += sign * terms[i] * params[eg_base + F_SIDE_TERMS + i]
    tempo = 1 if st[ST_SIDE] == WHITE else -1
    mg += tempo * params[mg_base + F_TEMPO]
    eg += tempo * params[eg_base + F_TEMPO]
    if st[ST_SIDE] != WHITE:
        mg = -mg
        eg = -eg
    return taper(mg, eg, game_phase(bb))


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64[::1])")
def evaluate(tab, bb, st, params):
    """Static evaluation of the position in centipawns from the side to move's view, computed from scratch."""
    if params[0] == KIND_NETWORK:
        return evaluate_network(bb, st, params)
    return evaluate_linear(tab, bb, st, params)
