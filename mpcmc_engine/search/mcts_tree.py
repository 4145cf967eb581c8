"""The numba Monte Carlo tree search: a preallocated node pool in one int64 array, simulations by PUCT (the `mcts`
mode) or plain UCT with random playouts (`mcts-rollout`), and the copy of a subtree that keeps it between moves.

The pool `tree` holds NODE_SIZE int64 slots per node (N_*); node 0 is the root, and a node's children are contiguous
(N_FIRST, N_COUNT), allocated all at once when it is expanded. Values are win probabilities in fixed point
(VALUE_ONE = 1.0): a node's N_WSUM and N_INIT are from the view of the side that moved into it, so a parent picks the
child with the best mean. N_PROOF is a proven result in the search's mate scale from the view of the side to move at
the node (MATE - plies: it mates; -(MATE - plies): it is mated; 0: unknown). N_MINIMAX (MODE_PUCT) is the minimax of
the values below the node in N_WSUM's view (implicit minimax backups), which selection blends with the mean. `meta`
holds the pool's counters (M_*), `params` the float settings (P_*), and `trail` is one thread's own array: its
random state and the path of the current simulation. Simulations share the pool between threads: counts and sums
change by atomic adds, a node is expanded by the one thread that moves its state from STATE_NEW to STATE_BUSY, and a
thread's path carries a virtual loss (N_VIRTUAL) that steers the others elsewhere.

Each simulation plays its moves on the thread's own board (`play` records them for a network's accumulators) and
unmakes them at the end; `ws` is the thread's work array of mpcmc_engine.search.core (move lists, accumulators and
the node counter of the quiescence searches).
"""

import math

import numpy as np

from mpcmc_engine import score_scale
from mpcmc_engine.bitboard.constants import MAX_GAME_PLY, MAX_MOVES, ST_PLY
from mpcmc_engine.bitboard.makemove import make_move, unmake_move
from mpcmc_engine.bitboard.movegen import generate_moves, in_check
from mpcmc_engine.eval.evaluate import KIND_NETWORK, evaluate
from mpcmc_engine.eval.network_eval import refresh_root
from mpcmc_engine.eval.policy import FEATURES
from mpcmc_engine.eval.policy_eval import hidden_at
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import (
    atomic_add, compare_exchange, load_acquire, load_relaxed, monotonic_ns,
)
from mpcmc_engine.search.constants import (
    C_HARD_DEADLINE, C_STOP, INF, MATE, MATE_BOUND, MAX_PLY, S_ABORT, S_ROOT_PLY, W_ACC, W_MOVES, W_ORDER,
)
from mpcmc_engine.search.node import play
from mpcmc_engine.search.policy_moves import policy_logits
from mpcmc_engine.search.predicates import is_draw
from mpcmc_engine.search.quiescence import quiescence

# Slots of a node.
N_MOVE = 0         # the move that leads to the node (0 at the root)
N_FIRST = 1        # index of its first child (children are contiguous)
N_COUNT = 2        # number of children (0 until expanded)
N_STATE = 3        # STATE_*
N_VISITS = 4       # completed simulations through the node
N_VIRTUAL = 5      # simulations under way through the node (virtual losses)
N_WSUM = 6         # sum of their values (fixed point) for the side that moved into the node
N_PRIOR = 7        # prior probability of the move (fixed point)
N_INIT = 8         # value (fixed point, same view as N_WSUM) assumed before the first visit
N_PROOF = 9        # proven result for the side to move at the node, in the search's mate scale; 0 = unknown
N_MINIMAX = 10     # minimax of the children's values below (fixed point, same view as N_WSUM); N_INIT at first
NODE_SIZE = 11

STATE_NEW = 0       # not expanded
STATE_BUSY = 1      # being expanded by one thread
STATE_EXPANDED = 2  # children allocated and written
STATE_TERMINAL = 3  # no legal move: checkmate (N_PROOF = -MATE) or stalemate

# Slots of `meta`.
M_USED = 0         # nodes allocated (may pass M_CAPACITY once an allocation failed: the pool is full)
M_CAPACITY = 1     # nodes the pool holds
M_SIMS = 2         # simulations started in this search (all threads)
M_SIM_LIMIT = 3    # no simulation starts once M_SIMS reaches it; 0 = none
M_SELDEPTH = 4     # deepest ply a simulation of this search reached
META_SIZE = 8

# Slots of `params`.
P_EXPLORATION = 0  # PUCT's c (mcts) or UCB1's c (mcts-rollout)
P_SCALE = 1        # logistic scale of the value: win probability = 1 / (1 + exp(-P_SCALE * centipawns))
P_TEMPERATURE = 2  # centipawns of the priors' softmax (mcts without a policy)
P_POLICY_WEIGHT = 3  # weight of the policy's logits in the priors' softmax (mcts with a policy), beside scores / T
P_MINIMAX_WEIGHT = 4  # share of the minimax value (N_MINIMAX) in a child's value at selection, beside its mean
PARAMS_SIZE = 5

# Slots of `trail`.
T_RANDOM = 0       # xorshift64* state of the random playouts (non-zero)
T_PATH = 1         # the nodes of the current simulation, root first
MAX_TREE_PLY = MAX_PLY - 32   # deepest node a simulation reaches (quiescence below it needs the remaining plies)
TRAIL_SIZE = T_PATH + MAX_TREE_PLY + 1

MODE_PUCT = 0
MODE_ROLLOUT = 1
VALUE_ONE = 1 << 20
PRIOR_CLAMP = 3000.0           # centipawns: child scores beyond this (mates) count as this for the priors
PRIOR_WINDOW = 400             # centipawns: a child's quiescence search only resolves scores above best - this
ROLLOUT_PLIES = 100            # a random playout ends after this many plies, scored by the evaluation
ROLLOUT_ROW = MAX_PLY - 1      # the work array's move list row random playouts use
SIMULATE_SIGNATURE = ("int64(uint64[::1], uint64[::1], int64[::1], int64[::1], float32[::1], float32[::1], "
                      "uint64[::1], int64[::1], int64[::1], int64[::1], int64[::1], float64[::1], int64[::1], "
                      "int64[::1], int64, int64, int64, int64)")
SCRATCH_SIZE = FEATURES + MAX_MOVES  # a thread's float scratch: the hidden vector, then the priors' logits
U_SHIFT_12 = np.uint64(12)
U_SHIFT_25 = np.uint64(25)
U_SHIFT_27 = np.uint64(27)
U_SHIFT_11 = np.uint64(11)
U_MULTIPLIER = np.uint64(2685821657736338717)


# score_scale.win_probability compiled: the win probability of a centipawn score at `scale` per centipawn
win_probability = jit("float64(float64, float64)", inline="always")(score_scale.win_probability)


@jit("int64(float64)", inline="always")
def fixed(value):
    """A value in [0, 1] as a fixed-point integer."""
    return np.int64(value * VALUE_ONE + 0.5)


@jit("int64(int64[::1], int64)")
def random_below(trail, bound):
    """A pseudo-random integer in [0, bound) from the thread's xorshift64* state (bound >= 1)."""
    x = np.uint64(trail[T_RANDOM])
    x ^= x >> U_SHIFT_12
    x ^= x << U_SHIFT_25
    x ^= x >> U_SHIFT_27
    trail[T_RANDOM] = np.int64(x)
    return np.int64(((x * U_MULTIPLIER) >> U_SHIFT_11) % np.uint64(bound))


@jit("void(int64[::1], int64, int64, int64, int64, int64)", inline="always")
def init_node(tree, node, move, prior, init, proof):
    """Write a fresh node: `move` leads to it, priors and initial value in fixed point, proof as N_PROOF."""
    base = node * NODE_SIZE
    tree[base + N_MOVE] = move
    tree[base + N_FIRST] = 0
    tree[base + N_COUNT] = 0
    tree[base + N_STATE] = STATE_TERMINAL if proof != 0 else STATE_NEW
    tree[base + N_VISITS] = 0
    tree[base + N_VIRTUAL] = 0
    tree[base + N_WSUM] = 0
    tree[base + N_PRIOR] = prior
    tree[base + N_INIT] = init
    tree[base + N_PROOF] = proof
    tree[base + N_MINIMAX] = init


@jit("boolean(int64[::1], int64, int64)", inline="always")
def is_allowed(root_moves, count, move):
    """True when `move` is one of root_moves[:count]."""
    for i in range(count):
        if root_moves[i] == move:
            return True
    return False


@jit("int64(int64[::1], int64, float64[::1], int64, boolean, int64[::1], int64)")
def select_child(tree, node, params, mode, at_root, root_moves, root_count):
    """The child of the expanded `node` a simulation enters: PUCT (mode MODE_PUCT: q + c * prior * sqrt(parent visits)
    / (1 + visits), q the mean value, or N_INIT before the first visit, moved toward N_MINIMAX by P_MINIMAX_WEIGHT)
    or UCB1 (MODE_ROLLOUT: an unvisited child first, else mean + c * sqrt(ln(parent visits) / visits)). Simulations
    under way count as losses. In MODE_PUCT a move
    proven to win is taken at once and moves proven to lose are skipped while another remains. At the root only
    root_moves[:root_count] are eligible."""
    base = node * NODE_SIZE
    first = tree[base + N_FIRST]
    parent = max(load_relaxed(tree, base + N_VISITS) + load_relaxed(tree, base + N_VIRTUAL), 1)
    exploration = params[P_EXPLORATION]
    minimax_weight = params[P_MINIMAX_WEIGHT]
    sqrt_parent = math.sqrt(parent)
    log_parent = math.log(parent)
    best = -1
    best_score = -math.inf
    fallback = -1
    for child in range(first, first + tree[base + N_COUNT]):
        slot = child * NODE_SIZE
        if at_root and not is_allowed(root_moves, root_count, tree[slot + N_MOVE]):
            continue
        if mode == MODE_PUCT:
            proof = tree[slot + N_PROOF]
            if proof <= -MATE_BOUND:
                return child
            if proof >= MATE_BOUND:
                fallback = child
                continue
        visits = load_relaxed(tree, slot + N_VISITS)
        virtual = load_relaxed(tree, slot + N_VIRTUAL)
        if mode == MODE_ROLLOUT:
            if visits + virtual == 0:
                return child
            mean = load_relaxed(tree, slot + N_WSUM) / VALUE_ONE / (visits + virtual)
            score = mean + exploration * math.sqrt(log_parent / (visits + virtual))
        else:
            if visits == 0:
                mean = tree[slot + N_INIT] / VALUE_ONE / (1 + virtual)
            else:
                mean = load_relaxed(tree, slot + N_WSUM) / VALUE_ONE / (visits + virtual)
            mean += minimax_weight * (load_relaxed(tree, slot + N_MINIMAX) / VALUE_ONE - mean)
            prior = tree[slot + N_PRIOR] / VALUE_ONE
            score = mean + exploration * prior * sqrt_parent / (1 + visits + virtual)
        if score > best_score:
            best_score = score
            best = child
    return best if best >= 0 else fallback


@jit("boolean(int64[::1], int64, boolean, int64[::1], int64)")
def update_proof(tree, node, at_root, root_moves, root_count):
    """Derive `node`'s proof from its children's (at the root: those of root_moves[:root_count]): won when a child's
    side to move is mated (the quickest such mate), lost when every child's side to move mates (the slowest); True
    when N_PROOF changed; False for a node not (yet) expanded."""
    base = node * NODE_SIZE
    if load_acquire(tree, base + N_STATE) != STATE_EXPANDED:  # children written and published, or none
        return False
    count = tree[base + N_COUNT]
    first = tree[base + N_FIRST]
    win = -INF
    loss = -INF
    for child in range(first, first + count):
        if at_root and not is_allowed(root_moves, root_count, tree[child * NODE_SIZE + N_MOVE]):
            continue
        proof = tree[child * NODE_SIZE + N_PROOF]
        if proof <= -MATE_BOUND:
            win = max(win, -proof - 1)
        elif proof >= MATE_BOUND:
            loss = max(loss, -proof + 1)
        else:
            loss = INF
    proof = win if win != -INF else (loss if -INF < loss < INF else 0)
    if proof == tree[base + N_PROOF]:
        return False
    tree[base + N_PROOF] = proof
    return True


@jit("int64(int64[::1], int64)")
def children_minimax(tree, node):
    """1 less the best value among the expanded `node`'s children (N_MINIMAX, or 1 / 0 for a proven child), in
    fixed point: the node's minimax value for the side that moved into it."""
    base = node * NODE_SIZE
    first = tree[base + N_FIRST]
    best = 0
    for child in range(first, first + tree[base + N_COUNT]):
        slot = child * NODE_SIZE
        proof = tree[slot + N_PROOF]
        if proof <= -MATE_BOUND:
            return 0
        value = 0 if proof >= MATE_BOUND else load_relaxed(tree, slot + N_MINIMAX)
        best = max(best, value)
    return VALUE_ONE - best


@jit("void(int64[::1], int64[::1], int64, float64, boolean, int64[::1], int64)")
def backup(tree, trail, depth, value, solve, root_moves, root_count):
    """Add a simulation's result to the nodes of its path trail[T_PATH:T_PATH + depth + 1]: `value` is the win
    probability of the side to move at the last node. Removes the path's virtual losses; with `solve`, carries
    proofs up the path as far as they change (the root's from root_moves[:root_count] only) and renews the path's
    minimax values (N_MINIMAX: the leaf's from `value`, each parent's from its children) as far as they change."""
    credit = VALUE_ONE - fixed(value)
    if solve:
        tree[trail[T_PATH + depth] * NODE_SIZE + N_MINIMAX] = credit
        for ply in range(depth - 1, -1, -1):
            node = trail[T_PATH + ply]
            minimax = children_minimax(tree, node)
            if minimax == tree[node * NODE_SIZE + N_MINIMAX]:
                break
            tree[node * NODE_SIZE + N_MINIMAX] = minimax
    for ply in range(depth, -1, -1):
        slot = trail[T_PATH + ply] * NODE_SIZE
        atomic_add(tree, slot + N_WSUM, credit)
        atomic_add(tree, slot + N_VISITS, 1)
        if ply > 0:
            atomic_add(tree, slot + N_VIRTUAL, -1)
        credit = VALUE_ONE - credit
    if solve:
        for ply in range(depth, -1, -1):
            if not update_proof(tree, trail[T_PATH + ply], ply == 0, root_moves, root_count) and ply < depth:
                break


@jit("void(int64[::1], int64[::1], int64)")
def abandon(tree, trail, depth):
    """Remove the virtual losses of an interrupted simulation's path."""
    for ply in range(depth, 0, -1):
        atomic_add(tree, trail[T_PATH + ply] * NODE_SIZE + N_VIRTUAL, -1)


@jit("float64(uint64[::1], uint64[::1], int64[::1], int64[::1], int64[::1], int64[::1], float64)")
def random_playout(tab, bb, st, weights, ws, trail, scale):
    """Win probability for the side to move of a random playout from the current position (left unchanged):
    uniformly random legal moves until checkmate (0 or 1), stalemate or a draw by rule (0.5), or ROLLOUT_PLIES
    plies, where the evaluation's win probability scores the position reached."""
    start = W_MOVES + ROLLOUT_ROW * MAX_MOVES
    played = 0
    result = -1.0
    while played < ROLLOUT_PLIES and st[ST_PLY] < MAX_GAME_PLY - 1:
        if played > 0 and is_draw(bb, st, ws[S_ROOT_PLY]):
            result = 0.5
            break
        end = generate_moves(tab, bb, st, ws, start, False)
        if end == start:
            result = 0.0 if in_check(tab, bb, st) else 0.5
            break
        make_move(tab, bb, st, ws[start + random_below(trail, end - start)])
        played += 1
    if result < 0.0:
        result = win_probability(evaluate(tab, bb, st, weights), scale)
    for _ in range(played):
        unmake_move(bb, st)
    return result if played % 2 == 0 else 1.0 - result


@jit("float64(uint64[::1], uint64[::1], int64[::1], int64[::1], float32[::1], float32[::1], uint64[::1], "
     "int64[::1], int64[::1], int64[::1], int64[::1], float64[::1], int64[::1], int64, int64, int64, boolean)")
def expand(tab, bb, st, weights, policy, scratch, tt, ws, ctl, tree, meta, params, trail, node, depth, mode,
           claimed):
    """Value (win probability for the side to move) of the leaf `node` at ply `depth`, expanding it when `claimed`
    (this thread holds it in STATE_BUSY) and the pool has room. MODE_PUCT scores every move by a quiescence search
    of the position after it (0 for a draw by rule; one more than PRIOR_WINDOW below the best so far gets an upper
    bound): the leaf's value is the best score's win probability, a child's prior the softmax of its score /
    P_TEMPERATURE plus, with a `policy` (a non-empty array), P_POLICY_WEIGHT x the policy's logit of the move, and
    its initial value the win probability of its score; a move
    that checkmates gives a terminal child. MODE_ROLLOUT gives the children equal priors and takes the value of a
    random playout. A position without legal moves becomes terminal (checkmate 0, stalemate 0.5). Returns -1 when a
    quiescence search was stopped (nothing written, the node released)."""
    start = W_MOVES + depth * MAX_MOVES
    end = generate_moves(tab, bb, st, ws, start, False)
    count = end - start
    slot = node * NODE_SIZE
    if count == 0:
        mated = in_check(tab, bb, st)
        if claimed:
            tree[slot + N_PROOF] = -MATE if mated else 0
            compare_exchange(tree, slot + N_STATE, STATE_BUSY, STATE_TERMINAL)
        return 0.0 if mated else 0.5
    first = -1
    if claimed:
        first = atomic_add(meta, M_USED, count)
        if first + count > meta[M_CAPACITY]:
            first = -1
    scale = params[P_SCALE]
    if mode == MODE_ROLLOUT:
        if first >= 0:
            for i in range(count):
                init_node(tree, first + i, ws[start + i], VALUE_ONE // count, 0, 0)
        value = random_playout(tab, bb, st, weights, ws, trail, scale)
    else:
        scores = ws[start - W_MOVES + W_ORDER:end - W_MOVES + W_ORDER]
        best = -INF
        for i in range(count):
            play(tab, bb, st, weights, tt, ws, depth, ws[start + i])
            if is_draw(bb, st, ws[S_ROOT_PLY]):
                scores[i] = 0
            else:
                floor = best - PRIOR_WINDOW if best > -INF + PRIOR_WINDOW else -INF
                scores[i] = -quiescence(tab, bb, st, weights, tt, ws, ctl, depth + 1, -INF, -floor)
            unmake_move(bb, st)
            if ws[S_ABORT]:
                if claimed:
                    compare_exchange(tree, slot + N_STATE, STATE_BUSY, STATE_NEW)
                return -1.0
            best = max(best, scores[i])
        value = win_probability(best, scale)
        if first >= 0:
            temperature = params[P_TEMPERATURE]
            top = min(best, PRIOR_CLAMP)
            logits = scratch[FEATURES:FEATURES + count]
            if policy.shape[0] > 0:
                hidden_at(bb, st, weights, ws, W_ACC, depth, scratch[:FEATURES])
                policy_logits(tab, bb, st, policy, scratch[:FEATURES], ws, start, count, logits)
            else:
                logits[:] = 0.0
            highest = -math.inf
            for i in range(count):
                logits[i] = (params[P_POLICY_WEIGHT] * logits[i]
                             + (min(max(scores[i], -PRIOR_CLAMP), PRIOR_CLAMP) - top) / temperature)
                highest = max(highest, logits[i])
            total = 0.0
            for i in range(count):
                logits[i] = math.exp(logits[i] - highest)
                total += logits[i]
            for i in range(count):
                mated = scores[i] == MATE - depth - 1  # quiescence found the child checkmated
                init_node(tree, first + i, ws[start + i], fixed(logits[i] / total),
                          fixed(win_probability(scores[i], scale)), -MATE if mated else 0)
    if first >= 0:
        tree[slot + N_FIRST] = first
        tree[slot + N_COUNT] = count
        compare_exchange(tree, slot + N_STATE, STATE_BUSY, STATE_EXPANDED)
    elif claimed:
        compare_exchange(tree, slot + N_STATE, STATE_BUSY, STATE_NEW)
    return value


@jit("float64(uint64[::1], uint64[::1], int64[::1], int64[::1], float32[::1], float32[::1], uint64[::1], "
     "int64[::1], int64[::1], int64[::1], int64[::1], float64[::1], int64[::1], int64[::1], int64, int64)")
def simulate_once(tab, bb, st, weights, policy, scratch, tt, ws, ctl, tree, meta, params, trail, root_moves,
                  root_count, mode):
    """One simulation from the root (node 0; the board is the root position and is left so): descend by
    select_child to a leaf (a node not expanded, terminal, proven, drawn by rule or at MAX_TREE_PLY), take its value
    (expanding it if it is new) and back it up. Returns the leaf's value (for its side to move), or -1 when a stop
    interrupted the simulation (nothing counted)."""
    solve = mode == MODE_PUCT
    node = 0
    depth = 0
    trail[T_PATH] = 0
    value = -1.0
    while True:
        slot = node * NODE_SIZE
        state = load_acquire(tree, slot + N_STATE)
        if depth > 0:
            proof = tree[slot + N_PROOF]
            if state == STATE_TERMINAL:
                value = 0.0 if proof != 0 else 0.5
                break
            if is_draw(bb, st, ws[S_ROOT_PLY]):
                value = 0.5
                break
            if proof != 0 and solve:
                value = 1.0 if proof > 0 else 0.0
                break
        if state == STATE_EXPANDED and depth < MAX_TREE_PLY:
            child = select_child(tree, node, params, mode, depth == 0, root_moves, root_count)
            atomic_add(tree, child * NODE_SIZE + N_VIRTUAL, 1)
            play(tab, bb, st, weights, tt, ws, depth, tree[child * NODE_SIZE + N_MOVE])
            depth += 1
            node = child
            trail[T_PATH + depth] = child
            continue
        claimed = (state == STATE_NEW and depth < MAX_TREE_PLY
                   and compare_exchange(tree, slot + N_STATE, STATE_NEW, STATE_BUSY))
        value = expand(tab, bb, st, weights, policy, scratch, tt, ws, ctl, tree, meta, params, trail, node, depth,
                       mode, claimed)
        break
    if value < 0.0:
        abandon(tree, trail, depth)
    else:
        backup(tree, trail, depth, value, solve, root_moves, root_count)
        if depth > meta[M_SELDEPTH]:
            meta[M_SELDEPTH] = depth
    for _ in range(depth):
        unmake_move(bb, st)
    return value


@jit(SIMULATE_SIGNATURE)
def simulate(tab, bb, st, weights, policy, scratch, tt, ws, ctl, tree, meta, params, trail, root_moves, root_count,
             mode, budget, until_ns):
    """Run up to `budget` simulations from the root position on the board (left unchanged) and return how many
    completed. Stops early on the stop flag, the hard deadline, `until_ns` (absolute monotonic_ns(), 0 = none), when
    the simulations of all threads reach meta[M_SIM_LIMIT] or once the root is proven (nothing more to learn)."""
    if weights[0] == KIND_NETWORK:
        refresh_root(bb, st, weights, ws, W_ACC)
    done = 0
    while done < budget:
        if load_relaxed(ctl, C_STOP) != 0 or tree[N_PROOF] != 0:
            break
        now = monotonic_ns()
        deadline = load_relaxed(ctl, C_HARD_DEADLINE)
        if (deadline != 0 and now >= deadline) or (until_ns != 0 and now >= until_ns):
            break
        limit = meta[M_SIM_LIMIT]
        if atomic_add(meta, M_SIMS, 1) >= limit and limit > 0:
            atomic_add(meta, M_SIMS, -1)
            break
        if simulate_once(tab, bb, st, weights, policy, scratch, tt, ws, ctl, tree, meta, params, trail, root_moves,
                         root_count, mode) < 0.0:
            atomic_add(meta, M_SIMS, -1)
            break
        done += 1
    return done


@jit("int64(int64[::1], int64[::1], int64)")
def copy_subtree(tree, target, root):
    """Copy node `root` of `tree` and everything below it into `target` (as large), `root` becoming node 0, children
    kept contiguous, virtual losses cleared; returns the nodes used."""
    for i in range(NODE_SIZE):
        target[i] = tree[root * NODE_SIZE + i]
    target[N_FIRST] = root  # a copied node's N_FIRST holds its source index until its children are copied
    used = 1
    node = 0
    while node < used:
        slot = node * NODE_SIZE
        source = target[slot + N_FIRST] * NODE_SIZE
        target[slot + N_VIRTUAL] = 0
        if target[slot + N_STATE] == STATE_BUSY:
            target[slot + N_STATE] = STATE_NEW
        count = tree[source + N_COUNT] if tree[source + N_STATE] == STATE_EXPANDED else 0
        first = tree[source + N_FIRST]
        for child in range(count):
            for i in range(NODE_SIZE):
                target[(used + child) * NODE_SIZE + i] = tree[(first + child) * NODE_SIZE + i]
            target[(used + child) * NODE_SIZE + N_FIRST] = first + child
        target[slot + N_FIRST] = used if count else 0
        target[slot + N_COUNT] = count
        used += count
        node += 1
    return used
