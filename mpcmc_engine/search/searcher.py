"""The Python face of the search: `Searcher` owns the transposition table, the control array and the per-thread
work arrays, and drives the numba root search (mpcmc_engine.search.root.search_root) from Python: iterative deepening
with aspiration windows (PVS) or MTD(bi) bisection over null-window probes, MultiPV, searchmoves, Lazy SMP helper
threads and progress reports. Each numba call releases the GIL, so `stop()` and `set_deadlines()` from another
thread take effect within microseconds. The MCTS algorithms are searched by mpcmc_engine.search.mcts_searcher with the
same tables, imported (and compiled) only when one is first used or `prepare`d.
"""

import threading
import time

import numpy as np

from mpcmc_engine.bitboard.constants import BB_KEYS, ST_PLY
from mpcmc_engine.eval.eval_file import load_default_evaluation
from mpcmc_engine.eval.evaluate import evaluation_array
from mpcmc_engine.eval.network import Network
from mpcmc_engine.eval.policy import Policy, network_digest
from mpcmc_engine.eval.weights import Weights
from mpcmc_engine.search.aligned import aligned_zeros
from mpcmc_engine.search.constants import (
    C_GENERATION, C_HARD_DEADLINE, C_SOFT_DEADLINE, C_STOP, CONTROL_SIZE, INF, MATE, MATE_BOUND, MAX_PLY, S_ABORT,
    S_NMP_MIN_PLY, S_NODE_LIMIT, S_NODES, S_ROOT_PLY, S_SELDEPTH, W_PV, W_PV_LENGTH, WORK_SIZE,
)
from mpcmc_engine.search.limits import (
    ALGORITHMS, MCTS_ALGORITHMS, SearchInfo, SearchLimits, SearchResult, uci_score,
)
from mpcmc_engine.search.pv_line import complete_pv
from mpcmc_engine.search.root import search_root
from mpcmc_engine.search.tt import GENERATIONS, entry_move, table_size, tt_hashfull, tt_probe
from mpcmc_engine.search.timeman import StabilityScale

ASPIRATION_DEPTH = 4     # first depth searched with an aspiration window
ASPIRATION_WINDOW = 25   # half-width of the first aspiration window, in centipawns
SOFT_STOP_DEPTH = 6      # below this depth the soft deadline starts no stop: only the hard one ends the search
# Lazy SMP: helper i (1, 2, ...) skips the depths d with ((d + SKIP_PHASE[i - 1]) // SKIP_SIZE[i - 1]) odd.
SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)


class _Line:
    """One MultiPV line of the last completed iteration."""

    def __init__(self):
        self.score = 0
        self.pv = []


class Searcher:
    """Searches positions with a shared transposition table; one search at a time (blocking `search`)."""

    def __init__(self, hash_mb: int = 16, threads: int = 1):
        self._control = np.zeros(CONTROL_SIZE, dtype=np.int64)
        self._first_control = np.zeros(CONTROL_SIZE, dtype=np.int64)  # the first iteration's: no stop, no deadline
        self._tt = aligned_zeros(table_size(hash_mb), np.uint64)
        self._work = []
        self.set_threads(threads)
        self._hash_mb = hash_mb
        self._mcts = None  # the MctsSearch, created on first use
        self._policy: Policy | None = None  # none by default (PolicyFile <none>)
        self.set_evaluation(load_default_evaluation())

    # --- configuration (between searches) -------------------------------------------------------------------------
    def resize(self, hash_mb: int) -> None:
        """Replace the transposition table (and the MCTS node pool, if any) by an empty one of `hash_mb` megabytes."""
        self._tt = aligned_zeros(table_size(hash_mb), np.uint64)
        self._hash_mb = hash_mb
        if self._mcts is not None:
            self._mcts.resize(hash_mb)

    def set_threads(self, threads: int) -> None:
        """Search with `threads` threads (1 main thread + threads - 1 Lazy SMP helpers)."""
        threads = max(1, int(threads))
        while len(self._work) < threads:
            self._work.append(aligned_zeros(WORK_SIZE, np.int64))
        del self._work[threads:]

    def clear(self) -> None:
        """Forget everything learnt: transposition table, history, killers and the MCTS tree."""
        self._tt.fill(0)
        for work in self._work:
            work.fill(0)
        if self._mcts is not None:
            self._mcts.clear()

    def set_evaluation(self, evaluation: Weights | Network) -> None:
        """Evaluate with `evaluation` (linear weights or a network) from the next search on (the transposition
        table, which holds the old one's evaluations, is cleared and the MCTS tree, valued with it, dropped)."""
        self._evaluation = evaluation
        self._weights = evaluation_array(evaluation)
        self._tt.fill(0)
        self._choose_policy()

    def set_policy(self, policy: Policy | None) -> None:
        """Let `mcts` add the logits of `policy` (None: none) to its priors from the next search on, whenever the
        evaluation is the network the policy was trained on (the MCTS tree is dropped)."""
        self._policy = policy
        self._choose_policy()

    def _choose_policy(self) -> None:
        """Set the policy weights `mcts` uses with the current evaluation (the policy's float32 weights, or an empty
        array when there is none or it reads another network's hidden layer) and drop the MCTS tree."""
        policy, evaluation = self._policy, self._evaluation
        self._policy_weights = np.zeros(0, dtype=np.float32)
        if policy is not None and isinstance(evaluation, Network) and policy.network == network_digest(evaluation):
            self._policy_weights = policy.weights
        if self._mcts is not None:
            self._mcts.clear()

    def prepare(self, algorithm: str) -> None:
        """Load (or compile) the code of search algorithm `algorithm` now rather than in its first search."""
        if algorithm in MCTS_ALGORITHMS:
            self._mcts_search()

    def _mcts_search(self):
        """The MctsSearch of this searcher (its numba code is loaded or compiled on the first call)."""
        if self._mcts is None:
            from mpcmc_engine.search.mcts_searcher import MctsSearch

            self._mcts = MctsSearch(self._hash_mb)
        return self._mcts

    # --- control (thread-safe, during a search) ---------------------------------------------------------------
    def stop(self) -> None:
        """Make the running search return as soon as possible."""
        self._control[C_STOP] = 1

    def set_deadlines(self, soft_ns: int, hard_ns: int) -> None:
        """Set the running search's soft and hard deadlines (absolute time.monotonic_ns(); 0 = none)."""
        self._control[C_SOFT_DEADLINE] = int(soft_ns)
        self._control[C_HARD_DEADLINE] = int(hard_ns)

    def hashfull(self) -> int:
        """Permille of the table holding entries of the current search (UCI hashfull)."""
        return int(tt_hashfull(self._tt, self._control[C_GENERATION]))

    # --- searching --------------------------------------------------------------------------------------------
    def search(self, position, limits: SearchLimits = None, on_info=None) -> SearchResult:
        """Search `position` (a bitboard Position, left unchanged) within `limits`; call on_info(SearchInfo) after
        each completed iteration and on each root fail high / fail low; return the best move found."""
        limits = limits or SearchLimits()
        if limits.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown search algorithm {limits.algorithm!r} (expected one of {ALGORITHMS})")
        started = time.monotonic_ns()
        control = self._control
        control[C_STOP] = 0
        control[C_GENERATION] = (control[C_GENERATION] + 1) % GENERATIONS
        self._first_control[C_GENERATION] = control[C_GENERATION]
        self.set_deadlines(limits.soft_deadline_ns, limits.hard_deadline_ns)
        root = position.copy()
        moves = root.legal_moves()
        if limits.searchmoves:
            moves = [move for move in moves if move in set(limits.searchmoves)] or moves
        if not moves:
            return self._no_move(root, started, on_info)
        for work in self._work:
            work[S_NODES] = 0
            work[S_ABORT] = 0
            work[S_NODE_LIMIT] = 0
            work[S_NMP_MIN_PLY] = 0
            work[S_ROOT_PLY] = root.ply
        if limits.algorithm in MCTS_ALGORITHMS:
            return self._mcts_search().search(root, moves, limits, on_info, started, self._tt, self._work,
                                              control, self._weights, self._policy_weights)
        tt_move = entry_move(tt_probe(self._tt, root.bb[BB_KEYS + root.st[ST_PLY]]))
        if tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        helpers = [threading.Thread(target=self._helper, daemon=True,
                                    args=(index, position.copy(), np.array(moves, dtype=np.int64)))
                   for index in range(1, len(self._work))]
        for helper in helpers:
            helper.start()
        try:
            return self._iterate(root, np.array(moves, dtype=np.int64), limits, on_info, started)
        finally:
            control[C_STOP] = 1
            for helper in helpers:
                helper.join()

    def _iterate(self, root, root_moves, limits, on_info, started) -> SearchResult:
        """Iterative deepening of the main thread; returns the result of the last completed iteration. The first
        iteration always completes (neither `stop`, nor a deadline, nor the node limit interrupts it: it takes
        microseconds), so that every search returns a searched move with a score, however late it started."""
        work = self._work[0]
        lines = [_Line() for _ in range(min(max(1, limits.multipv), len(root_moves)))]
        max_depth = min(limits.depth or MAX_PLY - 1, MAX_PLY - 1)
        completed = 0
        scale = StabilityScale()
        for depth in range(1, max_depth + 1):
            work[S_SELDEPTH] = 0
            for index, line in enumerate(lines):
                report = self._reporter(on_info, started, depth, index, line)
                if limits.algorithm == "mtdbi":
                    score, pv = self._mtdbi(root, root_moves[index:], depth, line)
                else:
                    score, pv = self._aspiration(root, root_moves[index:], depth, line, report)
                if work[S_ABORT]:
                    break
                best = int(root_moves[index])
                line.score = score
                mate_plies = MATE - abs(score) if abs(score) >= MATE_BOUND else 0
                line.pv = self._complete_pv(root, pv if pv and pv[0] == best else [best], max(depth, mate_plies))
            if work[S_ABORT]:
                break
            order = sorted(range(len(lines)), key=lambda i: -lines[i].score)
            lines = [lines[i] for i in order]
            root_moves[:len(lines)] = [line.pv[0] for line in lines]
            completed = depth
            work[S_NODE_LIMIT] = limits.nodes or 0
            if on_info:
                for index, line in enumerate(lines):
                    self._reporter(on_info, started, depth, index, line)(line.score, "exact", line.pv)
            factor = scale.update(depth, lines[0].pv[0], max(-MATE_BOUND, min(lines[0].score, MATE_BOUND)))
            if self._done(lines[0], limits, started, factor, depth):
                break
        return self._result(root_moves, lines[0], completed, started)

    def _done(self, line, limits, started, factor, depth) -> bool:
        """True when no further iteration may start: mate limit reached (a mate found whose PV reaches the mate;
        a shallow iteration can prove a mate through quiescence before the table holds its line), the soft deadline
        passed at `depth` SOFT_STOP_DEPTH or more, or stopped. With a clock (soft before hard) the soft deadline's
        distance from the start is scaled by `factor` (timeman.StabilityScale); the hard deadline still ends the
        search."""
        is_mate, moves = uci_score(line.score)
        if limits.mate and is_mate and 0 < moves <= limits.mate and len(line.pv) >= 2 * moves - 1:
            return True
        soft, hard = int(self._control[C_SOFT_DEADLINE]), int(self._control[C_HARD_DEADLINE])
        if soft != 0 and soft < hard:
            soft = started + int((soft - started) * factor)
        if soft != 0 and soft < hard and depth < SOFT_STOP_DEPTH:
            soft = hard
        return bool(self._control[C_STOP]) or (soft != 0 and time.monotonic_ns() >= soft)

    def _root(self, root, root_moves, depth, alpha, beta, work=None):
        """One numba root search of root_moves; returns (score, PV from the search or None if alpha not raised). A
        search of depth 1 cannot be stopped (see _iterate)."""
        work = self._work[0] if work is None else work
        control = self._control if depth > 1 else self._first_control
        score = int(search_root(root.tab, root.bb, root.st, self._weights, self._tt, work, control,
                                root_moves, len(root_moves), depth, alpha, beta))
        length = int(work[W_PV_LENGTH])
        return score, ([int(m) for m in work[W_PV:W_PV + length]] if length and score > alpha else None)

    def _aspiration(self, root, root_moves, depth, line, report=None, work=None):
        """PVS root search in a window around the line's previous score, widened on fail high / fail low (each
        reported when `report` is given); `work` is the searching thread's work array (default: the main one)."""
        work = self._work[0] if work is None else work
        if depth < ASPIRATION_DEPTH or abs(line.score) >= MATE_BOUND:
            return self._root(root, root_moves, depth, -INF, INF, work)
        delta = ASPIRATION_WINDOW
        alpha, beta = max(line.score - delta, -INF), min(line.score + delta, INF)
        while True:
            score, pv = self._root(root, root_moves, depth, alpha, beta, work)
            if work[S_ABORT] or alpha < score < beta:
                return score, pv
            if score <= alpha:
                if report:
                    report(score, "upper", line.pv)
                beta = (alpha + beta) // 2
                alpha = max(score - delta, -INF)
            else:
                if report:
                    report(score, "lower", self._complete_pv(root, pv, 1))
                beta = min(score + delta, INF)
            delta += delta // 2

    def _mtdbi(self, root, root_moves, depth, line):
        """MTD(bi): bisect [lower, upper] with null-window root probes (the first at the previous score) until the
        minimax score is pinned down; the PV is the last fail high's."""
        lower, upper = -INF, INF
        gamma = line.score if depth > 1 else 0
        best_pv = None
        while lower < upper:
            score, pv = self._root(root, root_moves, depth, gamma - 1, gamma)
            if self._work[0][S_ABORT]:
                break
            if score >= gamma:
                lower, best_pv = score, pv
            else:
                upper = score
            gamma = (lower + upper + 1) // 2
        return lower, best_pv

    def _complete_pv(self, root, pv, depth) -> list:
        """The PV from the search, extended with TT moves up to `depth` plies while they are legal and the line has
        not ended in mate or a draw (pv_line.complete_pv; `root` is left as it was)."""
        moves = np.array(pv or [], dtype=np.int64)
        line = np.empty(max(len(moves), depth), dtype=np.int64)
        length = complete_pv(root.tab, root.bb, root.st, self._tt, moves, depth, line)
        return [int(move) for move in line[:length]]

    def _reporter(self, on_info, started, depth, index, line):
        """A function (score, bound, pv) -> None calling on_info with the current counters."""
        def report(score, bound, pv):
            if on_info is None:
                return
            elapsed_ms = max(1, (time.monotonic_ns() - started) // 1_000_000)
            nodes = self.nodes()
            is_mate, value = uci_score(score)
            on_info(SearchInfo(depth=depth, seldepth=int(self._work[0][S_SELDEPTH]), multipv=index + 1,
                               score=value, is_mate=is_mate, bound=bound, nodes=nodes, time_ms=elapsed_ms,
                               nps=nodes * 1000 // elapsed_ms, hashfull=self.hashfull(), pv=list(pv or line.pv)))
        return report

    def nodes(self) -> int:
        """Nodes searched so far by all threads in the current (or last) search."""
        return int(sum(int(work[S_NODES]) for work in self._work))

    def _result(self, root_moves, line, depth, started) -> SearchResult:
        pv = line.pv if depth else [int(root_moves[0])]
        is_mate, value = uci_score(line.score)
        return SearchResult(best_move=pv[0], ponder_move=pv[1] if len(pv) > 1 else 0, score=value, is_mate=is_mate,
                            raw_score=line.score, depth=depth, seldepth=int(self._work[0][S_SELDEPTH]),
                            nodes=self.nodes(), time_ms=(time.monotonic_ns() - started) // 1_000_000, pv=list(pv))

    def _no_move(self, root, started, on_info) -> SearchResult:
        """Result for a root without legal moves: mated (score mate 0) or stalemate (0)."""
        raw = -MATE if root.is_check() else 0
        line = _Line()
        line.score = raw
        if on_info:
            self._reporter(on_info, started, 0, 0, line)(raw, "exact", [])
        is_mate, value = uci_score(raw)
        return SearchResult(0, 0, value, is_mate, raw, 0, 0, 0, (time.monotonic_ns() - started) // 1_000_000, [])

    def _helper(self, index, position, root_moves):
        """Lazy SMP helper: iterative deepening with aspiration windows on its own position copy and work array
        (so its own move ordering), skipping depths by Stockfish's pattern so that the threads spread over
        depths (helper 1 searches the even depths only); runs until the stop flag. Results go to the shared table."""
        work = self._work[index]
        size, phase = SKIP_SIZE[(index - 1) % len(SKIP_SIZE)], SKIP_PHASE[(index - 1) % len(SKIP_PHASE)]
        line = _Line()
        for depth in range(1, MAX_PLY):
            if work[S_ABORT]:
                break
            if ((depth + phase) // size) % 2:
                continue
            score, _ = self._aspiration(position, root_moves, depth, line, work=work)
            if not work[S_ABORT]:
                line.score = score
