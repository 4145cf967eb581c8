"""The integer move encoding: from | to << 6 | kind << 12 | (promotion type - KNIGHT) << 14."""

from mpcmc_engine.bitboard.constants import KNIGHT
from mpcmc_engine.jit import jit


@jit("int64(int64, int64, int64, int64)", inline="always")
def encode_move(origin, target, kind, promotion):
    """Pack a move; `promotion` is a piece type (KNIGHT..QUEEN) for promotions, ignored otherwise."""
    extra = (promotion - KNIGHT) << 14 if promotion >= KNIGHT else 0
    return origin | (target << 6) | (kind << 12) | extra


@jit("int64(int64)", inline="always")
def move_from(move):
    """Origin square of a move (the king's square for castling)."""
    return move & 63


@jit("int64(int64)", inline="always")
def move_to(move):
    """Target square of a move (the castling rook's square for castling)."""
    return (move >> 6) & 63


@jit("int64(int64)", inline="always")
def move_kind(move):
    """KIND_NORMAL, KIND_PROMOTION, KIND_EN_PASSANT or KIND_CASTLE."""
    return (move >> 12) & 3


@jit("int64(int64)", inline="always")
def move_promotion(move):
    """Piece type a promotion creates (meaningful only for KIND_PROMOTION)."""
    return ((move >> 14) & 3) + KNIGHT
