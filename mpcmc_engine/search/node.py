"""What every node of the search does besides searching: count itself and check the limits, make a move (recorded
for a network's accumulators), evaluate, and keep the triangular PV.

The arrays are those of mpcmc_engine.search.core: `tab`, `bb`, `st` (the board), `weights`, `tt`, `ws` (this
thread's work array) and `ctl` (the shared control array).
"""

from mpcmc_engine.bitboard.constants import BB_KEYS, ST_PLY
from mpcmc_engine.bitboard.makemove import make_move, make_null_move
from mpcmc_engine.eval.evaluate import KIND_NETWORK, evaluate_linear
from mpcmc_engine.eval.network_eval import network_score, record_move
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import load_relaxed, monotonic_ns
from mpcmc_engine.search.constants import (
    BOUND_LOWER, BOUND_UPPER, C_HARD_DEADLINE, C_STOP, EVAL_LIMIT, EVAL_NONE, MAX_PLY, S_ABORT, S_NODE_LIMIT,
    S_NODES, S_SELDEPTH, W_ACC, W_PV, W_PV_LENGTH,
)
from mpcmc_engine.search.tt import entry_bound, entry_eval, entry_score, tt_prefetch

CLOCK_INTERVAL = 1024          # nodes between two reads of the clock


@jit("boolean(int64[::1], int64[::1], int64)")
def enter_node(ws, ctl, ply):
    """Count a node and decide whether the search must stop (stop flag, node limit, hard deadline every
    CLOCK_INTERVAL nodes); True when it must. Once stopped, nothing more is counted, so a node limit is never
    exceeded (the re-searches that callers start after an aborted child stop at once)."""
    if ws[S_ABORT] != 0:
        return True
    nodes = ws[S_NODES] + 1
    ws[S_NODES] = nodes
    if ply > ws[S_SELDEPTH]:
        ws[S_SELDEPTH] = ply
    if load_relaxed(ctl, C_STOP) != 0 or (ws[S_NODE_LIMIT] != 0 and nodes >= ws[S_NODE_LIMIT]):
        ws[S_ABORT] = 1
    elif nodes % CLOCK_INTERVAL == 0:
        deadline = load_relaxed(ctl, C_HARD_DEADLINE)
        if deadline != 0 and monotonic_ns() >= deadline:
            ws[S_ABORT] = 1
    return ws[S_ABORT] != 0


@jit("void(uint64[::1], uint64[::1], int64[::1], int64[::1], uint64[::1], int64[::1], int64, int64)", inline="always")
def play(tab, bb, st, weights, tt, ws, ply, move):
    """make_move at `ply` of the search, recorded for a network's accumulators; the new position's TT bucket is
    prefetched for the probe that follows."""
    if weights[0] == KIND_NETWORK:
        record_move(st, ws, W_ACC, ply, move)
    make_move(tab, bb, st, move)
    tt_prefetch(tt, bb[BB_KEYS + st[ST_PLY]])


@jit("void(uint64[::1], uint64[::1], int64[::1], int64[::1], uint64[::1], int64[::1], int64)", inline="always")
def play_null_move(tab, bb, st, weights, tt, ws, ply):
    """make_null_move at `ply` of the search, recorded for a network's accumulators; the new position's TT bucket
    is prefetched."""
    if weights[0] == KIND_NETWORK:
        record_move(st, ws, W_ACC, ply, 0)
    make_null_move(tab, bb, st)
    tt_prefetch(tt, bb[BB_KEYS + st[ST_PLY]])


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64[::1], int64[::1], int64)", inline="always")
def search_evaluate(tab, bb, st, weights, ws, ply):
    """The static evaluation at `ply` of the search: a network's from that ply's accumulators, else the linear one;
    clamped within +-EVAL_LIMIT."""
    if weights[0] == KIND_NETWORK:
        score = network_score(bb, st, weights, ws, W_ACC, ply)
    else:
        score = evaluate_linear(tab, bb, st, weights)
    return min(max(score, -EVAL_LIMIT), EVAL_LIMIT)


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64[::1], int64[::1], int64, int64)", inline="always")
def stored_or_evaluate(tab, bb, st, weights, ws, ply, entry):
    """The static evaluation at `ply`: the one the TT entry `entry` (0: none) holds, else search_evaluate's."""
    if entry != 0:
        static_eval = entry_eval(entry)
        if static_eval != EVAL_NONE:
            return static_eval
    return search_evaluate(tab, bb, st, weights, ws, ply)


@jit("int64(int64, int64, int64)", inline="always")
def tt_bounded_eval(entry, ply, static_eval):
    """The static evaluation `static_eval` at `ply`, replaced by the TT entry's score when its bound says the position
    is worth more (lower bound above it) or less (upper bound below it); unchanged without an entry (0)."""
    if entry != 0:
        tt_score = entry_score(entry, ply)
        if entry_bound(entry) & (BOUND_LOWER if tt_score > static_eval else BOUND_UPPER):
            return tt_score
    return static_eval


@jit("void(int64[::1], int64, int64)", inline="always")
def update_pv(ws, ply, move):
    """PV of `ply` := move followed by the PV of ply + 1."""
    row = W_PV + ply * MAX_PLY
    child = row + MAX_PLY
    length = ws[W_PV_LENGTH + ply + 1] if ply + 1 < MAX_PLY else 0
    ws[row] = move
    for i in range(length):
        ws[row + 1 + i] = ws[child + i]
    ws[W_PV_LENGTH + ply] = length + 1
