"""The evaluation the search calls: the dot product of feature counts and weights, computed without a count array.

`weights` is the packed int64 vector of mpcmc_engine.eval.weights.Weights.packed(): middlegame weights at
[0, N_FEATURES), endgame weights at [N_FEATURES, 2 * N_FEATURES). The result equals, by construction and by test, the
dot product of mpcmc_engine.eval.features.extract_features with the same weights, tapered, from the side to move's view.
"""

from mpcmc_engine.bitboard.constants import KING, PAWN, ST_SIDE, U1, WHITE
from mpcmc_engine.jit.intrinsics import lsb
from mpcmc_engine.jit import jit
from mpcmc_engine.eval.features import (
    F_SIDE_TERMS, F_TEMPO, N_FEATURES, N_SIDE_TERMS, game_phase, material_index, pst_index, side_terms, taper,
)


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64[::1])")
def evaluate(tab, bb, st, weights):
    """Static evaluation in centipawns from the side to move's view."""
    mg = 0
    eg = 0
    for colour in range(2):
        sign = 1 - 2 * colour
        for piece_type in range(PAWN, KING + 1):
            material = material_index(piece_type)
            pieces = bb[colour * 8 + piece_type]
            while pieces:
                square = lsb(pieces)
                pst = pst_index(piece_type, colour, square)
                mg += sign * (weights[material] + weights[pst])
                eg += sign * (weights[N_FEATURES + material] + weights[N_FEATURES + pst])
                pieces &= pieces - U1
        terms = side_terms(tab, bb, colour)
        for i in range(N_SIDE_TERMS):
            mg += sign * terms[i] * weights[F_SIDE_TERMS + i]
            eg += sign * terms[i] * weights[N_FEATURES + F_SIDE_TERMS + i]
    tempo = 1 if st[ST_SIDE] == WHITE else -1
    mg += tempo * weights[F_TEMPO]
    eg += tempo * weights[N_FEATURES + F_TEMPO]
    if st[ST_SIDE] != WHITE:
        mg = -mg
        eg = -eg
    return taper(mg, eg, game_phase(bb))
