"""LLVM intrinsics for the numba code, all cacheable: bit tricks compiled to single instructions (popcnt, tzcnt,
bswap), a cache prefetch, atomic loads (relaxed for the stop flag, acquire for a state another thread publishes),
an atomic add and a compare-and-exchange (the shared MCTS tree) and the monotonic clock.

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


def _is_int64_slot(array, index) -> bool:
    """True when (array, index) type a slot of a 1-D int64 array."""
    return (isinstance(array, types.Array) and array.dtype == types.int64 and array.ndim == 1
            and isinstance(index, types.Integer))


def _slot_pointer(context, builder, array_type, array, index):
    """LLVM pointer to array[index]."""
    data = context.make_array(array_type)(context, builder, array)
    return cgutils.get_item_pointer(context, builder, array_type, data, [index])


def _atomic_load(array, index, ordering: str):
    """(signature, codegen) of an atomic load of array[index] (int64) with LLVM memory ordering `ordering`, None
    when the types do not fit."""
    if not _is_int64_slot(array, index):
        return None

    def codegen(context, builder, sig, args):
        return builder.load_atomic(_slot_pointer(context, builder, sig.args[0], args[0], args[1]), ordering, 8)

    return types.int64(array, types.int64), codegen


@intrinsic
def prefetch(typingctx, array, index):
    """Ask the CPU to bring the cache line of array[index] (a 1-D array) into its caches, without waiting for it:
    a hint that lets a later read of that line find it there (compiled to prefetcht0)."""
    if not (isinstance(array, types.Array) and array.ndim == 1 and isinstance(index, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        byte_pointer, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]), "llvm.prefetch.p0")
        pointer = builder.bitcast(_slot_pointer(context, builder, sig.args[0], args[0], args[1]), byte_pointer)
        # read access, highest temporal locality (all cache levels), data cache
        builder.call(function, [pointer, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(array, types.int64), codegen


@intrinsic
def load_relaxed(typingctx, array, index):
    """array[index] of a 1-D int64 array, read with a relaxed (monotonic) atomic load that LLVM cannot hoist."""
    return _atomic_load(array, index, "monotonic")


@intrinsic
def load_acquire(typingctx, array, index):
    """array[index] of a 1-D int64 array, read with an acquire load: what the thread that published the value wrote
    before (atomic_add, compare_exchange) is visible after it."""
    return _atomic_load(array, index, "acquire")


@intrinsic
def atomic_add(typingctx, array, index, value):
    """array[index] += value on a 1-D int64 array, atomically (sequentially consistent); returns the value before."""
    if not (_is_int64_slot(array, index) and isinstance(value, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        pointer = _slot_pointer(context, builder, sig.args[0], args[0], args[1])
        return builder.atomic_rmw("add", pointer, args[2], "seq_cst")

    return types.int64(array, types.int64, types.int64), codegen


@intrinsic
def compare_exchange(typingctx, array, index, expected, desired):
    """If array[index] (1-D int64) equals `expected`, set it to `desired`, atomically (sequentially consistent);
    True when it did."""
    if not (_is_int64_slot(array, index) and isinstance(expected, types.Integer)
            and isinstance(desired, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        pointer = _slot_pointer(context, builder, sig.args[0], args[0], args[1])
        result = builder.cmpxchg(pointer, args[2], args[3], "seq_cst", "seq_cst")
        return builder.extract_value(result, 1)

    return types.boolean(array, types.int64, types.int64, types.int64), codegen


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
