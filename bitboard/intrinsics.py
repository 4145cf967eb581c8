"""Bit tricks compiled to single instructions (popcnt, tzcnt, bswap) through LLVM intrinsics; cacheable by numba."""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, bits):
    """Number of set bits of a uint64, as int64."""
    if bits != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@intrinsic
def lsb(typingctx, bits):
    """Index (0..63) of the lowest set bit of a non-zero uint64, as int64; undefined for zero."""
    if bits != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.uint64), codegen


@intrinsic
def flip_vertical(typingctx, bits):
    """The uint64 bitboard mirrored top to bottom (square s -> s ^ 56): a byte swap, compiled to one instruction."""
    if bits != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bswap(args[0])

    return types.uint64(types.uint64), codegen
