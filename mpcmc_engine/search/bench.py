"""`bench`: a fixed set of positions searched to a fixed depth, single thread, fresh tables; the total node count is
a signature of the search (it changes exactly when the search's behaviour does)."""

import time
from dataclasses import dataclass

from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.searcher import Searcher

BENCH_DEPTH = 10
BENCH_HASH_MB = 16

# Positions from Stockfish's bench set: openings, middlegames with tactics, endgames.
BENCH_FENS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
)


@dataclass
class BenchResult:
    nodes: int
    time_ms: int
    nps: int


def bench_searcher() -> Searcher:
    """A fresh searcher as the bench uses it: BENCH_HASH_MB of hash, one thread."""
    return Searcher(hash_mb=BENCH_HASH_MB, threads=1)


def run_bench(depth: int = BENCH_DEPTH, algorithm: str = "pvs", fens=BENCH_FENS, on_position=None,
              searcher=None, stop_requested=None) -> BenchResult:
    """Search each bench position to `depth` with one thread and cleared tables; on_position(fen, SearchResult)
    after each. Returns the total nodes, time and nodes per second. `searcher` (default: a fresh bench_searcher())
    lets another thread stop a search; once `stop_requested` (a threading.Event) is set, no further position starts."""
    searcher = searcher or bench_searcher()
    nodes = 0
    elapsed_ns = 0
    for fen in fens:
        if stop_requested is not None and stop_requested.is_set():
            break
        searcher.clear()
        position = Position(fen)
        started = time.perf_counter_ns()
        result = searcher.search(position, SearchLimits(depth=depth, algorithm=algorithm))
        elapsed_ns += time.perf_counter_ns() - started
        nodes += result.nodes
        if on_position:
            on_position(fen, result)
    time_ms = max(1, elapsed_ns // 1_000_000)
    return BenchResult(nodes, time_ms, nodes * 1000 // time_ms)
