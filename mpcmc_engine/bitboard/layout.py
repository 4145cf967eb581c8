"""Inline accessors of the position's layout (see constants): piece codes and the bitboards held in `bb`. They
compile to the same single index or bit operation as writing it out (inline="always")."""

from mpcmc_engine.jit import jit


@jit("int64(int64, int64)", inline="always")
def piece_code(colour, piece_type):
    """The code of a piece of `colour` (WHITE, BLACK) and type (PAWN..KING): colour * 8 + type."""
    return colour * 8 + piece_type


@jit("int64(int64)", inline="always")
def type_of(piece):
    """The type (PAWN..KING) of a piece code."""
    return piece & 7


@jit("int64(int64)", inline="always")
def colour_of(piece):
    """The colour (WHITE, BLACK) of a piece code."""
    return piece >> 3


@jit("uint64(uint64[::1], int64, int64)", inline="always")
def pieces(bb, colour, piece_type):
    """The squares of the pieces of `colour` and type."""
    return bb[colour * 8 + piece_type]


@jit("uint64(uint64[::1], int64)", inline="always")
def occupied_by(bb, colour):
    """The squares of all pieces of `colour`."""
    return bb[colour * 8]
