"""Value types of the search face (limits, progress reports, results) and the one conversion of scores to UCI."""

from dataclasses import dataclass, field
from typing import List, Optional

from mpcmc_engine.search.constants import MATE, MATE_BOUND

MCTS_ALGORITHMS = ("mcts", "mcts-rollout")
ALGORITHMS = ("pvs", "mtdbi") + MCTS_ALGORITHMS


def uci_score(score: int):
    """(is_mate, value) of an internal score: ('score mate N' with N in moves, negative when mated) or centipawns."""
    if score >= MATE_BOUND:
        return True, (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return True, -((MATE + score) // 2)
    return False, score


@dataclass
class SearchLimits:
    """What bounds a search. Deadlines are absolute time.monotonic_ns() values (0 = none): past the soft deadline no
    new iteration starts, at the hard deadline the search stops at once. `mate`: stop once a mate in <= mate moves is
    found. `searchmoves`: core moves the root is restricted to. `algorithm`: one of ALGORITHMS (docs/MCTS.md says
    what the limits mean for the MCTS ones: `nodes` counts simulations, `depth` the PV's plies)."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    soft_deadline_ns: int = 0
    hard_deadline_ns: int = 0
    multipv: int = 1
    searchmoves: Optional[List[int]] = None
    algorithm: str = "pvs"


@dataclass
class SearchInfo:
    """One progress report: `score` is centipawns, or mate in moves (signed) when `is_mate`; `bound` is 'exact',
    'lower' (fail high) or 'upper' (fail low); `pv` is a list of core moves legal from the root; `visits` the
    simulations through the line's root move (MCTS only)."""

    depth: int
    seldepth: int
    multipv: int
    score: int
    is_mate: bool
    bound: str
    nodes: int
    time_ms: int
    nps: int
    hashfull: int
    pv: List[int] = field(default_factory=list)
    visits: Optional[int] = None


@dataclass
class SearchResult:
    """The outcome of a search: best_move is 0 when the root has no legal move; ponder_move 0 when unknown.
    `score`/`is_mate` as in SearchInfo, `raw_score` the internal score (MATE - ply for mates)."""

    best_move: int
    ponder_move: int
    score: int
    is_mate: bool
    raw_score: int
    depth: int
    seldepth: int
    nodes: int
    time_ms: int
    pv: List[int] = field(default_factory=list)
