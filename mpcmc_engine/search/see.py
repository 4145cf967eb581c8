"""Static exchange evaluation: does a capture sequence on one square gain at least a threshold?"""

import numpy as np

from mpcmc_engine.bitboard.attacks import attackers_of_colour, bishop_attacks, rook_attacks
from mpcmc_engine.bitboard.constants import (
    BB_ALL, BISHOP, KIND_CASTLE, KIND_EN_PASSANT, KIND_NORMAL, KING, PAWN, QUEEN, ROOK, ST_BOARD, U1,
)
from mpcmc_engine.jit.intrinsics import lsb
from mpcmc_engine.jit import jit
from mpcmc_engine.bitboard.moves import move_from, move_kind, move_to

# Piece values of the exchange (and of move ordering), indexed by piece type.
SEE_VALUE = np.array([0, 100, 320, 330, 500, 900, 20000, 0], dtype=np.int64)


@jit("boolean(uint64[::1], uint64[::1], int64[::1], int64, int64)")
def see_ge(tab, bb, st, move, threshold):
    """True when the exchange started by `move` wins at least `threshold` for the mover, both sides recapturing on
    the target square with their least valuable attacker (x-rays included, pins ignored). Promotions and castling
    count as an exchange of 0."""
    kind = move_kind(move)
    if kind == KIND_CASTLE or (kind != KIND_NORMAL and kind != KIND_EN_PASSANT):
        return threshold <= 0
    origin, target = move_from(move), move_to(move)
    captured = PAWN if kind == KIND_EN_PASSANT else st[ST_BOARD + target] & 7
    swap = SEE_VALUE[captured] - threshold
    if swap < 0:
        return False
    mover = st[ST_BOARD + origin]
    swap = SEE_VALUE[mover & 7] - swap
    if swap <= 0:
        return True
    occupied = bb[BB_ALL] ^ (U1 << np.uint64(origin)) ^ (U1 << np.uint64(target))
    if kind == KIND_EN_PASSANT:
        occupied ^= U1 << np.uint64(target - 8 if mover < 8 else target + 8)
    attackers = (attackers_of_colour(tab, bb, target, occupied, 0)
                 | attackers_of_colour(tab, bb, target, occupied, 1))
    diagonal = bb[BISHOP] | bb[QUEEN] | bb[8 + BISHOP] | bb[8 + QUEEN]
    straight = bb[ROOK] | bb[QUEEN] | bb[8 + ROOK] | bb[8 + QUEEN]
    side = mover >> 3
    result = 1
    while True:
        side = 1 - side
        attackers &= occupied
        ours = attackers & bb[side * 8]
        if not ours:
            break
        result ^= 1
        piece_type = PAWN
        while not (ours & bb[side * 8 + piece_type]):
            piece_type += 1
        if piece_type == KING:
            return (result ^ 1 if attackers & bb[(1 - side) * 8] else result) != 0
        swap = SEE_VALUE[piece_type] - swap
        if swap < result:
            break
        occupied ^= U1 << np.uint64(lsb(ours & bb[side * 8 + piece_type]))
        if piece_type == PAWN or piece_type == BISHOP or piece_type == QUEEN:
            attackers |= bishop_attacks(tab, target, occupied) & diagonal
        if piece_type == ROOK or piece_type == QUEEN:
            attackers |= rook_attacks(tab, target, occupied) & straight
    return result != 0
