"""The Python face of the Monte Carlo tree search (SearchAlgorithm `mcts` and `mcts-rollout`, see docs/MCTS.md):
`MctsSearch` owns the node pool of mpcmc_engine.search.mcts_tree, keeps the subtree of the position the next search
starts from, runs the numba simulations in short batches on the calling thread (between them it checks the limits
and reports) and without a break on Threads - 1 helper threads, and turns the root's children into MultiPV lines,
progress reports and the result. The transposition table, work arrays, control array and evaluation are the
Searcher's (mpcmc_engine.search.searcher), which calls `search`.
"""

import math
import threading
import time
from dataclasses import dataclass, field
from typing import List

import numpy as np

from mpcmc_engine.bitboard.constants import BB_KEYS, ST_UNDO, U_MOVE, UNDO_SIZE
from mpcmc_engine.score_scale import LICHESS_SCALE, centipawns_of
from mpcmc_engine.search.constants import C_HARD_DEADLINE, C_SOFT_DEADLINE, C_STOP, MATE_BOUND
from mpcmc_engine.search.limits import SearchInfo, SearchLimits, SearchResult, uci_score
from mpcmc_engine.search.mcts_tree import (
    M_CAPACITY, M_SELDEPTH, M_SIM_LIMIT, M_SIMS, M_USED, META_SIZE, MODE_PUCT, MODE_ROLLOUT, N_COUNT, N_FIRST,
    N_INIT, N_MOVE, N_PROOF, N_STATE, N_VISITS, N_WSUM, NODE_SIZE, P_EXPLORATION, P_MINIMAX_WEIGHT, P_POLICY_WEIGHT,
    P_SCALE, P_TEMPERATURE, PARAMS_SIZE, SCRATCH_SIZE, STATE_EXPANDED, STATE_TERMINAL, T_RANDOM, TRAIL_SIZE,
    VALUE_ONE, copy_subtree, simulate,
)
from mpcmc_engine.search.predicates import is_draw

MODES = {"mcts": MODE_PUCT, "mcts-rollout": MODE_ROLLOUT}
PUCT_EXPLORATION = 1.0            # c of PUCT, on values in [0, 1]
POLICY_WEIGHT = 1.0               # a unit of the policy's logit weighs as much as PRIOR_TEMPERATURE of score
MINIMAX_WEIGHT = 0.5              # mcts: a child's value at selection is (1 - this) x its mean + this x its minimax
UCT_EXPLORATION = math.sqrt(2.0)  # c of UCB1
PRIOR_TEMPERATURE = 100.0         # centipawns: a move scored 100 cp below the best has e^-1 of its prior weight
SEED = 0x2545F4914F6CDD1D         # random playouts: thread i starts each search from SEED + i
MIN_NODES = 1 << 12               # the smallest pool, whatever Hash says
BATCH_NS = 20_000_000             # the calling thread returns to Python at least this often
REPORT_NS = 1_000_000_000         # a progress report at least this often (and whenever the PV grows)
UNLIMITED = 1 << 62


@dataclass
class _Line:
    """One root move as a MultiPV line: its visits, raw score (search scale) and PV (ends where the tree does)."""

    visits: int
    raw_score: int
    pv: List[int] = field(default_factory=list)
    ended: bool = False  # the PV reaches a checkmate, a stalemate or a proven result


class MctsSearch:
    """The node pool and its reuse between searches; one search at a time."""

    def __init__(self, hash_mb: int):
        self._capacity = 0
        self._tree = np.zeros(0, dtype=np.int64)
        self._meta = np.zeros(META_SIZE, dtype=np.int64)
        self._root = None  # a copy of the position at node 0, None when the tree holds nothing
        self._mode = MODE_PUCT
        self.resize(hash_mb)

    def resize(self, hash_mb: int) -> None:
        """Hold hash_mb megabytes of nodes (at least MIN_NODES); the tree is emptied."""
        self._capacity = max(MIN_NODES, hash_mb * (1 << 20) // (NODE_SIZE * 8))
        self._tree = np.zeros(self._capacity * NODE_SIZE, dtype=np.int64)
        self.clear()

    def clear(self) -> None:
        """Forget the tree (ucinewgame, Clear Hash, another evaluation)."""
        self._root = None

    # --- the tree kept between searches ---------------------------------------------------------------------------
    def _prepare(self, root, mode: int) -> None:
        """Make node 0 the root position: the subtree of the last search's tree when `root` is that root or a position
        one or two plies below it reached through the tree, in the same mode; else an empty tree."""
        node = self._descendant_node(root) if self._root is not None and mode == self._mode else -1
        if node > 0:
            target = np.empty_like(self._tree)
            self._meta[M_USED] = copy_subtree(self._tree, target, node)
            self._tree = target
        elif node < 0:
            self._tree[:NODE_SIZE] = 0
            self._meta[M_USED] = 1
        self._tree[N_PROOF] = 0  # the root's proof counts the allowed moves only: the next simulation derives it
        self._meta[M_CAPACITY] = self._capacity
        self._root, self._mode = root.copy(), mode

    def _descendant_node(self, root) -> int:
        """The node of `root` in the kept tree (0: its root), -1 when it has none."""
        old = self._root
        plies = root.ply - old.ply
        if not 0 <= plies <= 2 or root.chess960 != old.chess960 or int(root.bb[BB_KEYS + old.ply]) != old.key:
            return -1
        nodes = self._tree.reshape(-1, NODE_SIZE)
        node = 0
        for ply in range(old.ply, root.ply):
            move = int(root.st[ST_UNDO + ply * UNDO_SIZE + U_MOVE])
            if nodes[node, N_STATE] != STATE_EXPANDED:
                return -1
            first = int(nodes[node, N_FIRST])
            children = nodes[first:first + int(nodes[node, N_COUNT]), N_MOVE]
            found = np.flatnonzero(children == move)
            if len(found) == 0:
                return -1
            node = first + int(found[0])
        return node

    # --- searching ----------------------------------------------------------------------------------------------
    def search(self, root, moves: list, limits: SearchLimits, on_info, started: int, tt, work, control,
               weights, policy) -> SearchResult:
        """Search `root` (left unchanged; it has legal moves) among `moves` within `limits` (see docs/MCTS.md for
        what each limit means here); on_info(SearchInfo) for each MultiPV line when the PV grows, every REPORT_NS
        and at the end. `tt`, `work` (one array a thread), `control`, `weights` and `policy` (float32, empty for
        none: `mcts` then takes its priors from quick scores) are the Searcher's; its stop flag and deadlines rule
        the search."""
        mode = MODES[limits.algorithm]
        self._prepare(root, mode)
        meta = self._meta
        meta[M_SIMS], meta[M_SIM_LIMIT], meta[M_SELDEPTH] = 0, limits.nodes or 0, 0
        params = np.zeros(PARAMS_SIZE, dtype=np.float64)
        params[P_EXPLORATION] = PUCT_EXPLORATION if mode == MODE_PUCT else UCT_EXPLORATION
        params[P_POLICY_WEIGHT] = POLICY_WEIGHT
        params[P_MINIMAX_WEIGHT] = MINIMAX_WEIGHT
        params[P_SCALE] = LICHESS_SCALE
        params[P_TEMPERATURE] = PRIOR_TEMPERATURE
        root_moves = np.array(moves, dtype=np.int64)
        trails = [np.zeros(TRAIL_SIZE, dtype=np.int64) for _ in work]
        scratches = [np.zeros(SCRATCH_SIZE, dtype=np.float32) for _ in work]
        for index, trail in enumerate(trails):
            trail[T_RANDOM] = SEED + index

        def run(index, position, until_ns):
            """Thread `index` simulates on `position` until a limit, or until_ns (0: none)."""
            simulate(position.tab, position.bb, position.st, weights, policy, scratches[index], tt, work[index],
                     control, self._tree, meta, params, trails[index], root_moves, len(root_moves), mode, UNLIMITED,
                     until_ns)

        helpers = [threading.Thread(target=run, args=(index, root.copy(), 0), daemon=True)
                   for index in range(1, len(work))]
        for helper in helpers:
            helper.start()
        try:
            self._run(lambda until_ns: run(0, root, until_ns), root, root_moves, limits, on_info, started, control)
        finally:
            control[C_STOP] = 1
            for helper in helpers:
                helper.join()
        lines = self._lines(root, root_moves, max(1, limits.multipv))
        if not lines:  # stopped before the first simulation
            lines = [_Line(0, 0, [int(root_moves[0])])]
        self._report(on_info, lines, started)
        best = lines[0]
        is_mate, value = uci_score(best.raw_score)
        return SearchResult(best_move=best.pv[0], ponder_move=best.pv[1] if len(best.pv) > 1 else 0, score=value,
                            is_mate=is_mate, raw_score=best.raw_score, depth=len(best.pv),
                            seldepth=self._seldepth(best), nodes=int(meta[M_SIMS]),
                            time_ms=(time.monotonic_ns() - started) // 1_000_000, pv=list(best.pv))

    def _run(self, batch, root, root_moves, limits, on_info, started, control) -> None:
        """Simulate in batches of at most BATCH_NS (`batch(until_ns)`) until a limit is reached, reporting when the
        PV grows and every REPORT_NS."""
        reported_depth, reported_at = 0, started
        while True:
            soft = int(control[C_SOFT_DEADLINE])
            until = time.monotonic_ns() + BATCH_NS
            batch(min(until, soft) if soft else until)
            best = self._lines(root, root_moves, 1)
            if not best:
                if control[C_STOP] or self._past(control) or 0 < (limits.nodes or 0) <= self._meta[M_SIMS]:
                    return
                continue
            if self._done(root, best[0], limits, control):
                return
            now = time.monotonic_ns()
            if len(best[0].pv) > reported_depth or now - reported_at >= REPORT_NS:
                self._report(on_info, self._lines(root, root_moves, max(1, limits.multipv)), started)
                reported_depth, reported_at = len(best[0].pv), now

    def _past(self, control) -> bool:
        """True when the soft or the hard deadline has passed."""
        now = time.monotonic_ns()
        return any(0 < int(control[slot]) <= now for slot in (C_SOFT_DEADLINE, C_HARD_DEADLINE))

    def _done(self, root, best: _Line, limits: SearchLimits, control) -> bool:
        """True when the search must end: stopped, a deadline passed, the simulations reached `nodes`, the root is
        proven (an allowed move wins, or every one loses), or with `depth`: the PV is that long, has ended (also in a
        draw by rule), or the pool is full."""
        meta = self._meta
        if control[C_STOP] or self._past(control) or self._tree[N_PROOF]:
            return True
        if limits.nodes and meta[M_SIMS] >= limits.nodes:
            return True
        return bool(limits.depth) and (len(best.pv) >= limits.depth or best.ended or meta[M_USED] >= self._capacity
                                       or self._drawn(root, best.pv))

    # --- reading the tree -----------------------------------------------------------------------------------------
    def _lines(self, root, root_moves, count: int) -> list:
        """The `count` best root moves allowed (root_moves) as _Lines, best first: a proven win first, a proven loss
        last, else by visits, then mean value; [] before the root is expanded."""
        nodes = self._tree.reshape(-1, NODE_SIZE)
        if nodes[0, N_STATE] != STATE_EXPANDED:
            return []
        first = int(nodes[0, N_FIRST])
        children = [first + i for i in range(int(nodes[0, N_COUNT])) if nodes[first + i, N_MOVE] in root_moves]
        ranked = sorted(children, key=lambda child: (self._child_score(nodes, child, proven_only=True),
                                                     int(nodes[child, N_VISITS]), self._child_score(nodes, child)),
                        reverse=True)
        return [self._line(root, nodes, child) for child in ranked[:count]]

    def _child_score(self, nodes, child: int, proven_only: bool = False) -> int:
        """The raw score (search scale, for the parent's side to move) of a child: its proof seen one ply higher,
        else (0 with proven_only) the centipawns of its mean value (its initial value before a visit)."""
        proof = int(nodes[child, N_PROOF])
        if proof:
            return -proof - 1 if proof < 0 else -proof + 1
        if proven_only:
            return 0
        visits = int(nodes[child, N_VISITS])
        if visits:
            mean = nodes[child, N_WSUM] / VALUE_ONE / visits
        else:
            mean = nodes[child, N_INIT] / VALUE_ONE if self._mode == MODE_PUCT else 0.5
        return centipawns_of(mean)

    def _line(self, root, nodes, child: int) -> _Line:
        """The line of root move `child`: its PV follows, while nodes are expanded, the quickest proven win, else (all
        moves lost) the slowest proven loss, else the most visited child."""
        pv, node = [int(nodes[child, N_MOVE])], child
        while nodes[node, N_STATE] == STATE_EXPANDED:
            first, count = int(nodes[node, N_FIRST]), int(nodes[node, N_COUNT])
            block = nodes[first:first + count]
            winning = np.flatnonzero(block[:, N_PROOF] <= -MATE_BOUND)
            if len(winning):  # the quickest mate
                node = first + int(winning[np.argmin(block[winning, N_PROOF])])
            elif block[:, N_PROOF].min() >= MATE_BOUND:  # every move loses: the slowest mate
                node = first + int(np.argmin(block[:, N_PROOF]))
            elif block[:, N_VISITS].max() > 0:
                node = first + int(np.argmax(block[:, N_VISITS]))
            else:
                break
            pv.append(int(nodes[node, N_MOVE]))
        ended = bool(nodes[node, N_STATE] == STATE_TERMINAL or nodes[node, N_PROOF])
        return _Line(int(nodes[child, N_VISITS]), self._child_score(nodes, child), pv, ended)

    @staticmethod
    def _drawn(root, pv: list) -> bool:
        """True when the position at the end of `pv` is drawn by rule (as the simulations judge it)."""
        position = root.copy()
        for move in pv:
            position.push(move)
        return bool(is_draw(position.bb, position.st, root.ply))

    def _seldepth(self, line: _Line) -> int:
        return max(int(self._meta[M_SELDEPTH]), len(line.pv))

    def _report(self, on_info, lines: list, started: int) -> None:
        """on_info(SearchInfo) for each line: depth = its PV's length, nodes = simulations, hashfull = the pool's
        permille in use, visits = its root move's."""
        if on_info is None:
            return
        elapsed_ms = max(1, (time.monotonic_ns() - started) // 1_000_000)
        simulations = int(self._meta[M_SIMS])
        hashfull = min(1000, int(self._meta[M_USED]) * 1000 // self._capacity)
        for index, line in enumerate(lines):
            is_mate, value = uci_score(line.raw_score)
            on_info(SearchInfo(depth=len(line.pv), seldepth=self._seldepth(line), multipv=index + 1, score=value,
                               is_mate=is_mate, bound="exact", nodes=simulations, time_ms=elapsed_ms,
                               nps=simulations * 1000 // elapsed_ms, hashfull=hashfull, pv=list(line.pv),
                               visits=line.visits))
