"""The feature layout and the one feature extraction shared by the engine's evaluation and any trainer.

A feature count is white's count minus black's, with black's pieces seen from black's side (square mirrored
vertically), so a weight vector is written once for "the side it belongs to". The layout is an ordered tuple of named
blocks; a weight vector has one middlegame and one endgame weight per feature. Later features (mobility, pawn
structure, king safety, ...) are added as new blocks at the end of LAYOUT, with their extraction here.
"""

import numpy as np

from bitboard.constants import KING, KNIGHT, PAWN, ST_SIDE, U1, WHITE
from bitboard.intrinsics import lsb, popcount
from bitboard.jit import jit

LAYOUT = (
    ("tempo", 1),         # +1 when white is to move, -1 when black is
    ("material", 6),      # pieces per type, PAWN..KING
    ("pst", 6 * 64),      # piece-square: type-major, square as seen from the piece's own side
)


def block_offsets(layout=LAYOUT):
    """{name: (offset, size)} of each block in a feature vector of `layout`."""
    offsets, start = {}, 0
    for name, size in layout:
        offsets[name] = (start, size)
        start += size
    return offsets


_OFFSETS = block_offsets()
F_TEMPO = _OFFSETS["tempo"][0]
F_MATERIAL = _OFFSETS["material"][0]
F_PST = _OFFSETS["pst"][0]
N_FEATURES = sum(size for _, size in LAYOUT)

# Game phase: 24 with all minor and major pieces on the board, 0 with none.
PHASE_MAX = 24
PHASE_WEIGHT = np.array([0, 0, 1, 1, 2, 4, 0], dtype=np.int64)  # indexed by piece type


@jit("int64(int64)", inline="always")
def material_index(piece_type):
    """Feature index of one piece of `piece_type` in the material block."""
    return F_MATERIAL + piece_type - PAWN


@jit("int64(int64, int64, int64)", inline="always")
def pst_index(piece_type, colour, square):
    """Feature index of a piece of `piece_type` and `colour` on `square` in the piece-square block."""
    return F_PST + (piece_type - PAWN) * 64 + (square ^ (56 * colour))


@jit("int64(uint64[::1])")
def game_phase(bb):
    """Game phase 0 (bare kings and pawns) .. PHASE_MAX (all pieces), from the piece counts."""
    phase = 0
    for piece_type in range(KNIGHT, KING):
        phase += PHASE_WEIGHT[piece_type] * popcount(bb[piece_type] | bb[8 + piece_type])
    return min(phase, PHASE_MAX)


@jit("int64(int64, int64, int64)", inline="always")
def taper(mg, eg, phase):
    """Blend a middlegame and an endgame score by phase (truncating division: taper(-a, -b) == -taper(a, b))."""
    total = mg * phase + eg * (PHASE_MAX - phase)
    if total >= 0:
        return total // PHASE_MAX
    return -((-total) // PHASE_MAX)


@jit("void(uint64[::1], int64[::1], int64[::1])")
def extract_features(bb, st, counts):
    """Write the position's feature counts (white minus black, layout LAYOUT) into counts[:N_FEATURES]."""
    for i in range(N_FEATURES):
        counts[i] = 0
    counts[F_TEMPO] = 1 if st[ST_SIDE] == WHITE else -1
    for colour in range(2):
        sign = 1 - 2 * colour
        for piece_type in range(PAWN, KING + 1):
            pieces = bb[colour * 8 + piece_type]
            while pieces:
                square = lsb(pieces)
                counts[material_index(piece_type)] += sign
                counts[pst_index(piece_type, colour, square)] += sign
                pieces &= pieces - U1

