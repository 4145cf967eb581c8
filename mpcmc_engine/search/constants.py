"""Named constants of the search: score scale, bounds, and the slots of the control and work arrays."""

from mpcmc_engine.bitboard.constants import MAX_MOVES
from mpcmc_engine.eval.network_eval import PLY_SLOTS

MAX_PLY = 128                  # deepest search ply (the work arrays hold this many plies)
MATE = 32000                   # score of giving mate now; mate at ply p scores MATE - p
MATE_BOUND = MATE - MAX_PLY    # |score| >= MATE_BOUND means a forced mate
EVAL_LIMIT = MATE_BOUND - 1    # the search clamps a static evaluation within +-EVAL_LIMIT: it never reads as a mate
INF = MATE + 1                 # beyond every score
EVAL_NONE = -INF               # no static evaluation: a ply in check, or not evaluated
DRAW = 0

# Transposition table bounds.
BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = 0, 1, 2, 3  # BOUND_NONE: no score, an evaluation only

# Slots of the shared int64 control array (one per Searcher, written by any Python thread, read by every search
# thread with a relaxed atomic load). Deadlines are absolute time.monotonic_ns() values, 0 = none.
C_STOP = 0
C_SOFT_DEADLINE = 1
C_HARD_DEADLINE = 2
C_GENERATION = 3
CONTROL_SIZE = 8

# Slots of the per-thread int64 work array `ws`: counters, then the move-ordering tables, the triangular PV and the
# per-ply move lists. The two history tables hold int16 scores (within +-HISTORY_MAX), four to an int64 slot: they
# are read through ws.view(np.int16) from int16 index 4 * W_HISTORY and 4 * W_CONTINUATION on, so that the
# continuation history takes 2 MB of cache instead of 8.
S_NODES = 0          # nodes searched (main search and quiescence, each node once)
S_SELDEPTH = 1       # deepest ply reached
S_ABORT = 2          # 1 once the search must unwind (stop flag, hard deadline, node limit)
S_ROOT_PLY = 3       # st[ST_PLY] of the root position
S_NODE_LIMIT = 4     # abort when S_NODES reaches it; 0 = none
S_NMP_MIN_PLY = 5    # during a null-move verification search: no null move of side S_NMP_COLOR before this ply
S_NMP_COLOR = 6
S_ROOT_DEPTH = 7     # depth of the current root search
W_KILLERS = 8                                # [ply][2]
W_HISTORY = W_KILLERS + 2 * MAX_PLY          # [side][from][to], int16
W_PV_LENGTH = W_HISTORY + 2 * 64 * 64 // 4   # [ply]: length of the PV from that ply
W_PV = W_PV_LENGTH + MAX_PLY                 # [ply][MAX_PLY]: triangular PV
W_EVAL = W_PV + MAX_PLY * MAX_PLY            # [ply]: static evaluation (EVAL_NONE in check)
W_MOVED = W_EVAL + MAX_PLY                   # [ply]: piece * 64 + target of the move made at that ply, -1 for null
W_EXCLUDED = W_MOVED + MAX_PLY              # [ply]: the move a singular-extension search leaves out, 0 = none
W_COUNTER = W_EXCLUDED + MAX_PLY                # [piece * 64 + target of the previous move]: its refutation
W_CONTINUATION = W_COUNTER + 16 * 64         # [previous piece-target][piece-target]: continuation history, int16
W_MOVES = W_CONTINUATION + (16 * 64) ** 2 // 4  # [ply][MAX_MOVES]: move lists
W_ORDER = W_MOVES + MAX_PLY * MAX_MOVES      # [ply][MAX_MOVES]: their ordering scores
W_ACC = W_ORDER + MAX_PLY * MAX_MOVES        # [ply 0..MAX_PLY][PLY_SLOTS]: network accumulators (eval.network_eval)
WORK_SIZE = W_ACC + (MAX_PLY + 1) * PLY_SLOTS

HISTORY_MAX = 16384           # history scores stay within [-HISTORY_MAX, HISTORY_MAX] (gravity updates): int16

# Move-ordering score bands (the W_ORDER slots): the TT move, captures that do not lose material (SEE), the killers
# and the counter move, quiet moves by history (around 0), captures that lose material.
ORDER_TT_MOVE = 1 << 30
ORDER_GOOD_CAPTURE = 1 << 28
ORDER_KILLER = 1 << 27
ORDER_BAD_CAPTURE = -(1 << 27)
ORDER_PRUNED = -(1 << 40)      # a move skipped by pruning (its ordering slot is overwritten to mark it)
