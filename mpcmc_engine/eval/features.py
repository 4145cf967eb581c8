"""The feature layout and the one feature extraction shared by the engine's evaluation and any trainer.

A feature count is white's count minus black's, with black's pieces seen from black's side (board mirrored
vertically), so a weight vector is written once for "the side it belongs to". The layout is an ordered tuple of named
blocks; a weight vector has one middlegame and one endgame weight per feature.

Blocks after the piece-square table are "side terms": counts computed for one side at a time by `side_terms`, in its
own frame (black's bitboards mirrored), in the order of SIDE_TERM_BLOCKS:
- mobility[N, B, R, Q]: squares attacked by each piece that hold no own piece and no enemy pawn attack;
- king_attack[N, B, R, Q]: attacks of each piece on the enemy king's zone (king square and its neighbours);
- passed_pawn[rank 2..7]: pawns with no enemy pawn ahead on their own or an adjacent file, by relative rank;
- doubled_pawn: pawns beyond the first on a file; isolated_pawn: pawns with no own pawn on an adjacent file;
- connected_pawn: pawns defended by an own pawn or with an own pawn beside them on the same rank;
- pawn_shield[1, 2]: own pawns one and two ranks in front of the king, on its file and the adjacent ones;
- bishop_pair: 1 with two or more bishops; rook_open_file / rook_half_open_file: rooks on a file without pawns /
  without own pawns but with enemy pawns.
"""

import numpy as np
from numba import types

from mpcmc_engine.bitboard.attacks import bishop_attacks, pawn_attacks_all, rook_attacks
from mpcmc_engine.bitboard.constants import (
    BB_ALL, BISHOP, BLACK, FILE_A, KING, KNIGHT, NOT_FILE_A, NOT_FILE_H, PAWN, QUEEN, RANK_1, ROOK, ST_SIDE, T_KING,
    T_KNIGHT, U0, U1, WHITE,
)
from mpcmc_engine.jit.intrinsics import flip_vertical, lsb, popcount
from mpcmc_engine.jit import jit

SIDE_TERM_BLOCKS = (
    ("mobility", 4),
    ("king_attack", 4),
    ("passed_pawn", 6),
    ("doubled_pawn", 1),
    ("isolated_pawn", 1),
    ("connected_pawn", 1),
    ("pawn_shield", 2),
    ("bishop_pair", 1),
    ("rook_open_file", 1),
    ("rook_half_open_file", 1),
)
LAYOUT = (
    ("tempo", 1),         # +1 when white is to move, -1 when black is
    ("material", 6),      # pieces per type, PAWN..KING
    ("pst", 6 * 64),      # piece-square: type-major, square as seen from the piece's own side
) + SIDE_TERM_BLOCKS


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
F_SIDE_TERMS = _OFFSETS[SIDE_TERM_BLOCKS[0][0]][0]
N_SIDE_TERMS = sum(size for _, size in SIDE_TERM_BLOCKS)
N_FEATURES = sum(size for _, size in LAYOUT)

# Game phase: 24 with all minor and major pieces on the board, 0 with none.
PHASE_MAX = 24
PHASE_WEIGHT = np.array([0, 0, 1, 1, 2, 4, 0], dtype=np.int64)  # indexed by piece type

S1, S8, S16, S32 = (np.uint64(n) for n in (1, 8, 16, 32))
SIDE_TERMS_SIGNATURE = types.UniTuple(types.int64, N_SIDE_TERMS)(types.uint64[::1], types.uint64[::1], types.int64)


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


@jit("uint64(uint64, boolean)", inline="always")
def _oriented(bits, mirror):
    """`bits` seen from black's side when `mirror`, else unchanged."""
    return flip_vertical(bits) if mirror else bits


@jit("uint64(uint64)", inline="always")
def _sideways(bits):
    """The squares beside `bits` on the same rank (one file left or right)."""
    return ((bits << S1) & NOT_FILE_A) | ((bits >> S1) & NOT_FILE_H)


@jit("uint64(uint64)", inline="always")
def _fill_down(bits):
    """Every square on or below a square of `bits` on the same file."""
    bits |= bits >> S8
    bits |= bits >> S16
    return bits | (bits >> S32)


@jit(SIDE_TERMS_SIGNATURE)
def side_terms(tab, bb, colour):
    """The side terms (SIDE_TERM_BLOCKS order) of `colour`'s pieces, counted in its own frame."""
    mirror = colour == BLACK
    own, enemy = colour * 8, (1 - colour) * 8
    pawns = _oriented(bb[own + PAWN], mirror)
    enemy_pawns = _oriented(bb[enemy + PAWN], mirror)
    occupied = _oriented(bb[BB_ALL], mirror)
    enemy_king = lsb(_oriented(bb[enemy + KING], mirror))
    king = lsb(_oriented(bb[own + KING], mirror))
    enemy_pawn_attacks = pawn_attacks_all(enemy_pawns, BLACK)  # the enemy moves down in this frame
    area = ~(_oriented(bb[own], mirror) | enemy_pawn_attacks)
    zone = tab[T_KING + enemy_king] | (U1 << np.uint64(enemy_king))
    mobility_n = attack_n = 0
    pieces = _oriented(bb[own + KNIGHT], mirror)
    while pieces:
        attacks = tab[T_KNIGHT + lsb(pieces)]
        mobility_n += popcount(attacks & area)
        attack_n += popcount(attacks & zone)
        pieces &= pieces - U1
    mobility_b = attack_b = 0
    pieces = _oriented(bb[own + BISHOP], mirror)
    bishops = pieces
    while pieces:
        attacks = bishop_attacks(tab, lsb(pieces), occupied)
        mobility_b += popcount(attacks & area)
        attack_b += popcount(attacks & zone)
        pieces &= pieces - U1
    mobility_r = attack_r = rook_open = rook_half_open = 0
    pieces = _oriented(bb[own + ROOK], mirror)
    while pieces:
        square = lsb(pieces)
        attacks = rook_attacks(tab, square, occupied)
        mobility_r += popcount(attacks & area)
        attack_r += popcount(attacks & zone)
        file = FILE_A << np.uint64(square & 7)
        if (pawns | enemy_pawns) & file == U0:
            rook_open += 1
        elif pawns & file == U0:
            rook_half_open += 1
        pieces &= pieces - U1
    mobility_q = attack_q = 0
    pieces = _oriented(bb[own + QUEEN], mirror)
    while pieces:
        square = lsb(pieces)
        attacks = bishop_attacks(tab, square, occupied) | rook_attacks(tab, square, occupied)
        mobility_q += popcount(attacks & area)
        attack_q += popcount(attacks & zone)
        pieces &= pieces - U1
    files = _fill_down(pawns) & RANK_1
    isolated_files = files & ~_sideways(files)
    defended = pawn_attacks_all(pawns, WHITE)
    passed = pawns & ~(_fill_down(enemy_pawns | _sideways(enemy_pawns)) >> S8)
    king_files = _sideways(U1 << np.uint64(king)) | (U1 << np.uint64(king))
    return (mobility_n, mobility_b, mobility_r, mobility_q, attack_n, attack_b, attack_r, attack_q,
            popcount(passed & (RANK_1 << S8)), popcount(passed & (RANK_1 << S16)),
            popcount(passed & (RANK_1 << np.uint64(24))), popcount(passed & (RANK_1 << S32)),
            popcount(passed & (RANK_1 << np.uint64(40))), popcount(passed & (RANK_1 << np.uint64(48))),
            popcount(pawns) - popcount(files),
            popcount(pawns & (isolated_files * FILE_A)),
            popcount(pawns & (defended | _sideways(pawns))),
            popcount(pawns & (king_files << S8)), popcount(pawns & (king_files << S16)),
            1 if popcount(bishops) >= 2 else 0,
            rook_open, rook_half_open)


@jit("void(uint64[::1], uint64[::1], int64[::1], int64[::1])")
def extract_features(tab, bb, st, counts):
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
        terms = side_terms(tab, bb, colour)
        for i in range(N_SIDE_TERMS):
            counts[F_SIDE_TERMS + i] += sign * terms[i]
