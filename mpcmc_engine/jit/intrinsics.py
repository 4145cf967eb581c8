"""LLVM intrinsics for the numba code, all cacheable: bit tricks compiled to single instructions (popcnt, tzcnt,
bswap), a relaxed atomic load (for the stop flag) and the monotonic clock.

`monotonic_ns()` calls clock_gettime(CLOCK_MONOTONIC), the clock of Python's time.monotonic_ns() on Linux, so a
Python thread can write absolute deadlines that the search compares against.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

CLOCK_MONOTONIC = 1


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


@intrinsic
def load_relaxed(typingctx, array, index):
    """array[index] of a 1-D int64 array, read with a relaxed (monotonic) atomic load that LLVM cannot hoist."""
    if not (isinstance(array, types.Array) and array.dtype == types.int64 and array.ndim == 1
            and isinstance(index, types.Integer)):
        return None
    signature = types.int64(array, types.int64)

    def codegen(context, builder, sig, args):
        data = context.make_array(sig.args[0])(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, sig.args[0], data, [args[1]])
        return builder.load_atomic(pointer, "monotonic", 8)

    return signature, codegen


@intrinsic
def monotonic_ns(typingctx):
    """Nanoseconds of CLOCK_MONOTONIC (equal to Python's time.monotonic_ns() on Linux)."""

    def codegen(context, builder, sig, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i32, [i32, timespec.as_pointer()]), "clock_gettime")
        slot = cgutils.alloca_once(builder, timespec)
        builder.call(function, [ir.Constant(i32, CLOCK_MONOTONIC), slot])
        seconds = builder.load(cgutils.gep_inbounds(builder, slot, 0, 0))
        nanoseconds = builder.load(cgutils.gep_inbounds(builder, slot, 0, 1))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanoseconds)

    return types.int64(), codegen
