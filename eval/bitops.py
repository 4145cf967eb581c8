"""Bit operations the evaluation needs beyond bitboard.intrinsics: the vertical mirror of a bitboard (one bswap)."""

from numba import types
from numba.extending import intrinsic


@intrinsic
def flip_vertical(typingctx, bits):
    """The uint64 bitboard mirrored top to bottom (square s -> s ^ 56): a byte swap, compiled to one instruction."""
    if bits != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bswap(args[0])

    return types.uint64(types.uint64), codegen
