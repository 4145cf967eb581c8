"""Search: mates, PV legality, draws, stopping and limits, MultiPV, searchmoves, threads, bench determinism."""

import threading
import time

import chess
import pytest

from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.data import MATE_IN_2, MATE_IN_3
from mpcmc_engine.search.bench import BENCH_FENS, run_bench
from mpcmc_engine.search.constants import MATE
from mpcmc_engine.search.limits import SearchLimits, uci_score
from mpcmc_engine.search.searcher import Searcher

MIDDLEGAME = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14"
MATE_DEPTH = 12  # the depth within which every mate in two of the suite is found


@pytest.fixture(scope="module")
def searcher():
    return Searcher(hash_mb=16)


def assert_legal_pv(fen, pv, position):
    board = chess.Board(fen)
    for move in pv:
        uci = chess.Move.from_uci(position.uci(move))
        assert uci in board.legal_moves, (fen, [position.uci(m) for m in pv])
        position.push(move)
        board.push(uci)
    for _ in pv:
        position.pop()


def mate_sample(path, step):
    fens = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    return fens[::step]


def test_uci_score():
    assert uci_score(MATE - 1) == (True, 1)
    assert uci_score(MATE - 3) == (True, 2)
    assert uci_score(-MATE + 2) == (True, -1)
    assert uci_score(-MATE) == (True, 0)
    assert uci_score(57) == (False, 57)


def check_mates(searcher, fens, moves, depth, algorithm, slack=0):
    """Each position is solved within `depth` plies as a mate in `moves` (up to `moves + slack`) with a legal PV that
    ends in mate. The search stops at the first such mate (`go mate`): the pruning of a modern search (reverse
    futility up to depth 8 above all) hides some sacrifices until the nominal depth is well above the mate's length."""
    for fen in fens:
        searcher.clear()
        position = Position(fen)
        result = searcher.search(position, SearchLimits(depth=depth, mate=moves + slack, algorithm=algorithm))
        assert result.is_mate and moves <= result.score <= moves + slack, (fen, result)
        assert_legal_pv(fen, result.pv, position)
        board = chess.Board(fen)
        for move in result.pv:
            board.push_uci(position.uci(move))
        assert board.is_checkmate() and len(result.pv) == 2 * result.score - 1, (fen, result.pv)


@pytest.mark.parametrize("algorithm", ["pvs", "mtdbi"])
def test_mate_in_two(searcher, algorithm):
    check_mates(searcher, mate_sample(MATE_IN_2, 15), 2, MATE_DEPTH, algorithm)


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["pvs", "mtdbi"])
def test_mate_in_two_all(searcher, algorithm):
    check_mates(searcher, mate_sample(MATE_IN_2, 1), 2, MATE_DEPTH, algorithm)


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["pvs", "mtdbi"])
def test_mate_in_three(searcher, algorithm):
    # The zugzwang problem k1B5/... (1. a5!) needs null-move verification and no deep reverse futility pruning in
    # late endgames. Pruning hides the shortest mate of some composed problems at this depth: a longer one counts.
    check_mates(searcher, mate_sample(MATE_IN_3, 1), 3, MATE_DEPTH + 2, algorithm, slack=2)


def test_mate_in_one(searcher):
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    result = searcher.search(Position(fen), SearchLimits(depth=3))
    assert (result.is_mate, result.score) == (True, 1)
    assert Position(fen).uci(result.best_move) == "a1a8"


@pytest.mark.parametrize("algorithm", ["pvs", "mtdbi"])
def test_pv_is_legal(searcher, algorithm):
    for fen in BENCH_FENS[:8]:
        infos = []
        position = Position(fen)
        searcher.search(position, SearchLimits(depth=5, algorithm=algorithm, multipv=2), on_info=infos.append)
        assert infos
        for info in infos:
            assert info.pv, (fen, info)
            assert_legal_pv(fen, info.pv, position)
        assert position.fen() == chess.Board(fen).fen()


@pytest.mark.parametrize("fen, score", [
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0),                 # stalemate
    ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", -MATE),              # checkmate
])
def test_root_without_moves(searcher, fen, score):
    result = searcher.search(Position(fen), SearchLimits(depth=3))
    assert result.best_move == 0 and result.raw_score == score


def test_repetition_draw_from_game_history(searcher):
    board = chess.Board("k7/8/8/8/8/8/4Q3/7K b - - 0 1")
    for uci in ["a8a7", "e2d2", "a7b8", "d2e2", "b8a7", "e2d2", "a7b8", "d2e2"]:
        board.push_uci(uci)
    position = Position.from_board(board)
    result = searcher.search(position, SearchLimits(depth=5))
    assert position.uci(result.best_move) == "b8a7" and result.raw_score == 0
    fresh = searcher.search(Position(board.fen()), SearchLimits(depth=5))
    assert fresh.raw_score < -500  # without the history there is no draw


def test_fifty_move_draw(searcher):
    assert searcher.search(Position("k7/8/8/8/8/8/4Q3/7K b - - 99 80"), SearchLimits(depth=4)).raw_score == 0
    assert searcher.search(Position("k7/8/8/8/8/8/4Q3/7K b - - 0 80"), SearchLimits(depth=4)).raw_score < -500


@pytest.mark.parametrize("fen", ["8/8/4k3/8/8/3NK3/8/8 w - - 0 1", "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",
                                 "8/8/4k1b1/8/8/3BK3/8/8 w - - 0 1"])
def test_insufficient_material(searcher, fen):
    assert searcher.search(Position(fen), SearchLimits(depth=4)).raw_score == 0


def run_in_thread(searcher, position, limits):
    box = {}
    thread = threading.Thread(target=lambda: box.update(result=searcher.search(position, limits)))
    thread.start()
    return thread, box


def stopped_by_hand(searcher, thread) -> bool:
    """Whether the search in `thread` was still running (then it is stopped here, so no search outlives its test)."""
    running = thread.is_alive()
    if running:
        searcher.stop()
        thread.join()
    return running


# The timing tests below bound the times generously (a busy machine delays threads by hundreds of milliseconds); what
# they catch is an infinite search that a stop or a deadline fails to end. They print the time taken.

def test_stop_from_another_thread(searcher):
    position = Position(MIDDLEGAME)
    thread, box = run_in_thread(searcher, position, SearchLimits())
    time.sleep(0.5)
    started = time.monotonic()
    searcher.stop()
    thread.join(10)
    elapsed_ms = (time.monotonic() - started) * 1000
    print(f"stop -> result in {elapsed_ms:.2f} ms")
    assert not thread.is_alive() and elapsed_ms < 1000
    assert box["result"].best_move in position.legal_moves()


def test_hard_deadline(searcher):
    position = Position(MIDDLEGAME)
    started = time.monotonic_ns()
    thread, box = run_in_thread(searcher, position, SearchLimits(hard_deadline_ns=started + 200_000_000))
    thread.join(10)
    elapsed_ms = (time.monotonic_ns() - started) / 1e6
    print(f"hard deadline 200 ms -> returned after {elapsed_ms:.1f} ms")
    assert not stopped_by_hand(searcher, thread) and elapsed_ms < 1200
    assert box["result"].best_move in position.legal_moves()


def test_deadlines_changed_during_search(searcher):
    position = Position(MIDDLEGAME)
    thread, box = run_in_thread(searcher, position, SearchLimits())
    time.sleep(0.2)
    now = time.monotonic_ns()
    searcher.set_deadlines(now + 50_000_000, now + 100_000_000)
    thread.join(10)
    elapsed_ms = (time.monotonic_ns() - now) / 1e6
    print(f"hard deadline set to 100 ms -> returned after {elapsed_ms:.1f} ms")
    assert not stopped_by_hand(searcher, thread) and elapsed_ms < 1100


def test_node_limit(searcher):
    result = searcher.search(Position(MIDDLEGAME), SearchLimits(nodes=5000))
    assert 0 < result.nodes <= 5000 and result.best_move != 0


def test_mate_limit_stops_early(searcher):
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    result = searcher.search(Position(fen), SearchLimits(mate=1))
    assert (result.is_mate, result.score) == (True, 1) and result.depth < 10


@pytest.mark.parametrize("algorithm", ["pvs", "mtdbi"])
def test_multipv(searcher, algorithm):
    infos = []
    position = Position(MIDDLEGAME)
    searcher.search(position, SearchLimits(depth=5, multipv=3, algorithm=algorithm), on_info=infos.append)
    last = [info for info in infos if info.depth == 5 and info.bound == "exact"][-3:]
    assert [info.multipv for info in last] == [1, 2, 3]
    assert len({info.pv[0] for info in last}) == 3
    scores = [info.score for info in last]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("algorithm", ["pvs", "mtdbi"])
def test_searchmoves(searcher, algorithm):
    position = Position()
    allowed = [position.parse_uci("a2a3"), position.parse_uci("h2h4")]
    result = searcher.search(position, SearchLimits(depth=5, searchmoves=allowed, algorithm=algorithm))
    assert result.best_move in allowed


def test_two_threads():
    searcher = Searcher(hash_mb=16, threads=2)
    position = Position(MIDDLEGAME)
    result = searcher.search(position, SearchLimits(depth=7))
    assert result.best_move in position.legal_moves() and result.depth == 7
    assert_legal_pv(MIDDLEGAME, result.pv, position)


def test_bench_is_deterministic():
    first = run_bench(depth=5, fens=BENCH_FENS[:6])
    second = run_bench(depth=5, fens=BENCH_FENS[:6])
    print(f"bench depth 5 (6 positions): {first.nodes} nodes")
    assert first.nodes == second.nodes > 0
