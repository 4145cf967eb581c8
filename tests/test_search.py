"""Search: mates, PV legality, draws, stopping and limits, MultiPV, searchmoves, threads, the bench signature."""

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

BENCH_SIGNATURE = 769_675  # `mpcmc-engine bench` nodes with the shipped network (the default); see docs/STRENGTH.md
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


def test_bench_signature():
    """`bench` (every position, depth 10, one thread) gives the node count that docs/STRENGTH.md states:
    a change of this number is a change of the search's behaviour, to be tested in a match and logged there."""
    result = run_bench()
    print(f"bench: {result.nodes} nodes")
    assert result.nodes == BENCH_SIGNATURE


# --- static exchange evaluation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("fen, uci, gain", [
    ("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100),           # pawn won, no recapture
    ("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -220),  # NxP, NxN, ... loses the knight
    ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100),                         # pawn takes an undefended pawn
    ("4k3/2p5/3p4/8/8/8/3Q4/4K3 w - - 0 1", "d2d6", -800),                      # queen takes a defended pawn
    ("4k3/8/2n5/8/3P4/8/8/4K3 w - - 0 1", "d4d5", 0),                            # quiet push, knight cannot take
    ("4k3/2n5/8/8/8/3B4/8/4K3 w - - 0 1", "d3b5", -330),                         # quiet move onto an attacked square
])
def test_see(fen, uci, gain):
    from mpcmc_engine.search.see import see_ge
    position = Position(fen)
    move = position.parse_uci(uci)
    assert see_ge(position.tab, position.bb, position.st, move, gain)
    assert not see_ge(position.tab, position.bb, position.st, move, gain + 1)


# --- checks given by quiet moves -------------------------------------------------------------------------------

def quiet_piece_moves_agree_on_check(position, board):
    """Assert gives_check against python-chess for every legal quiet move of a piece other than the king (king
    moves count as no check by contract)."""
    from mpcmc_engine.search.predicates import gives_check, is_tactical
    for move in position.legal_moves():
        uci = chess.Move.from_uci(position.uci(move))
        if is_tactical(position.st, move) or board.piece_type_at(uci.from_square) == chess.KING:
            continue
        assert gives_check(position.tab, position.bb, position.st, move) == board.gives_check(uci), \
            (board.fen(), uci.uci())


@pytest.mark.parametrize("fen", [
    "7k/8/8/8/8/2P5/8/B3K3 w - - 0 1",       # a pawn step uncovering the bishop
    "4k3/8/8/8/8/8/4N3/4RK2 w - - 0 1",      # a knight jump uncovering the rook, and its own checks
    "2k5/8/8/8/8/8/8/3QK3 w - - 0 1",        # queen checks along files, ranks and diagonals
    "8/8/3k4/8/8/8/8/R3K1B1 w - - 0 1",      # bishop and rook checks through empty lines
    "4k3/8/8/8/4P3/8/8/4R1K1 w - - 0 1",     # a pawn on the rook's file: moving ahead keeps blocking
])
def test_gives_check_of_quiet_piece_moves(fen):
    quiet_piece_moves_agree_on_check(Position(fen), chess.Board(fen))


def test_gives_check_in_random_games():
    import random
    rng = random.Random(11)
    for _ in range(40):
        position, board = Position(chess.STARTING_FEN), chess.Board()
        for _ in range(rng.randrange(10, 120)):
            quiet_piece_moves_agree_on_check(position, board)
            moves = position.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            board.push(chess.Move.from_uci(position.uci(move)))
            position.push(move)


# --- transposition table ------------------------------------------------------------------------------------------

def stored_entry(tt, key, ply):
    """(move, score seen from `ply`, depth, bound) of `key`'s entry in `tt`."""
    from mpcmc_engine.search.tt import entry_bound, entry_depth, entry_move, entry_score, tt_probe
    entry = tt_probe(tt, key)
    return entry_move(entry), entry_score(entry, ply), entry_depth(entry), entry_bound(entry)


def test_tt_store_and_probe():
    import numpy as np
    from mpcmc_engine.search.constants import BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, EVAL_LIMIT, EVAL_NONE
    from mpcmc_engine.search.tt import (
        BUCKET_WORDS, GENERATIONS, entry_bound, entry_eval, entry_generation, entry_move, entry_score, tt_probe,
        tt_store,
    )
    tt = np.zeros(4 * BUCKET_WORDS, dtype=np.uint64)
    key = np.uint64(0x123456789ABCDEF0)
    assert tt_probe(tt, key) == 0
    tt_store(tt, key, 1234, -57, 9, BOUND_LOWER, 3, 1, 88)
    assert stored_entry(tt, key, 3) == (1234, -57, 9, BOUND_LOWER)
    assert entry_eval(tt_probe(tt, key)) == 88
    # A mate score is stored relative to the node: seen from another ply it keeps the distance from that node.
    tt_store(tt, key, 0, MATE - 10, 4, BOUND_EXACT, 6, 1, EVAL_NONE)
    entry = tt_probe(tt, key)
    assert entry_score(entry, 2) == MATE - 6 and entry_bound(entry) == BOUND_EXACT
    assert entry_move(entry) == 1234  # a store without a move keeps the key's move ...
    assert entry_eval(entry) == 88  # ... and one without an evaluation the key's evaluation
    tt_store(tt, key, 0, -MATE + 8, 4, BOUND_UPPER, 4, 1, EVAL_NONE)
    assert entry_score(tt_probe(tt, key), 8) == -MATE + 12
    for static_eval in (-EVAL_LIMIT, EVAL_LIMIT, 0):  # every static evaluation fits, beside the other fields
        tt_store(tt, key, 4321, -MATE + 8, 255, BOUND_EXACT, 4, GENERATIONS - 1, static_eval)
        entry = tt_probe(tt, key)
        assert (entry_eval(entry), entry_generation(entry)) == (static_eval, GENERATIONS - 1)
        assert stored_entry(tt, key, 4) == (4321, -MATE + 8, 255, BOUND_EXACT)
    other = np.uint64(0x0F0F0F0F0F0F0F0F)
    tt_store(tt, other, 0, 0, 0, BOUND_EXACT, 0, 1, EVAL_NONE)  # no evaluation known: none is read back
    assert entry_eval(tt_probe(tt, other)) == EVAL_NONE


def test_tt_bounded_eval_takes_the_stored_score_only_where_its_bound_allows():
    import numpy as np
    from mpcmc_engine.search.constants import BOUND_EXACT, BOUND_LOWER, BOUND_NONE, BOUND_UPPER
    from mpcmc_engine.search.node import tt_bounded_eval
    from mpcmc_engine.search.tt import BUCKET_WORDS, tt_probe, tt_store
    tt = np.zeros(BUCKET_WORDS, dtype=np.uint64)
    key = np.uint64(0x0FEDCBA987654321)
    assert tt_bounded_eval(tt_probe(tt, key), 2, 37) == 37  # no entry: the static evaluation
    tt_store(tt, key, 0, 0, 0, BOUND_NONE, 2, 1, 37)
    assert tt_bounded_eval(tt_probe(tt, key), 2, 37) == 37  # an evaluation alone: no score to bound it
    tt_store(tt, key, 0, 120, 5, BOUND_LOWER, 2, 1, 0)
    assert tt_bounded_eval(tt_probe(tt, key), 2, 40) == 120  # worth at least 120: more than 40
    assert tt_bounded_eval(tt_probe(tt, key), 2, 200) == 200  # a lower bound below the evaluation says nothing
    tt_store(tt, key, 0, -30, 5, BOUND_UPPER, 2, 1, 0)
    assert tt_bounded_eval(tt_probe(tt, key), 2, 40) == -30  # worth at most -30: less than 40
    assert tt_bounded_eval(tt_probe(tt, key), 2, -90) == -90
    tt_store(tt, key, 0, 15, 5, BOUND_EXACT, 2, 1, 0)
    assert tt_bounded_eval(tt_probe(tt, key), 2, 40) == 15 and tt_bounded_eval(tt_probe(tt, key), 2, -90) == 15


def test_search_takes_the_static_evaluation_stored_in_the_tt():
    """A position met again is not evaluated again: planting a false evaluation for the position after 1. e4 makes a
    1-ply search (quiescence at that position, where black has no capture) prefer 1. e4 by that evaluation; loading
    an evaluation clears the table, and with it the planted one."""
    import numpy as np
    from mpcmc_engine.eval.eval_file import load_evaluation
    from mpcmc_engine.search.constants import BOUND_NONE
    from mpcmc_engine.search.tt import tt_store
    searcher = Searcher(hash_mb=1)
    start = Position(chess.STARTING_FEN)
    after_e4 = Position(chess.STARTING_FEN)
    after_e4.push(after_e4.parse_uci("e2e4"))
    tt_store(searcher._tt, np.uint64(after_e4.key), 0, 0, 0, BOUND_NONE, 0, 0, -5000)
    result = searcher.search(start, SearchLimits(depth=1))
    assert start.uci(result.best_move) == "e2e4" and result.raw_score == 5000
    searcher.set_evaluation(load_evaluation("<network>"))
    result = searcher.search(start, SearchLimits(depth=1))
    assert abs(result.raw_score) < 200


def test_tt_replacement_prefers_shallow_and_old_entries():
    import numpy as np
    from mpcmc_engine.search.constants import BOUND_EXACT
    from mpcmc_engine.search.tt import BUCKET_ENTRIES, BUCKET_WORDS, entry_depth, tt_probe, tt_store
    tt = np.zeros(BUCKET_WORDS, dtype=np.uint64)  # one bucket: every key competes for its entries
    keys = [np.uint64((i + 1) * 0x1000100010001) for i in range(BUCKET_ENTRIES + 2)]
    depths = [10, 3, 12, 7]
    for key, depth in zip(keys, depths):
        tt_store(tt, key, 0, 0, depth, BOUND_EXACT, 0, 5, 0)
    assert all(entry_depth(tt_probe(tt, key)) == depth for key, depth in zip(keys, depths))
    # A full bucket: the new entry replaces the shallowest one of the same generation (depth 3).
    tt_store(tt, keys[4], 0, 0, 1, BOUND_EXACT, 0, 5, 0)
    assert tt_probe(tt, keys[1]) == 0 and tt_probe(tt, keys[4]) != 0
    # In the next search all four entries have aged alike: the shallowest (keys[4], depth 1) goes.
    tt_store(tt, keys[5], 0, 0, 2, BOUND_EXACT, 0, 6, 0)
    assert tt_probe(tt, keys[4]) == 0 and tt_probe(tt, keys[5]) != 0
    assert all(tt_probe(tt, key) != 0 for key in (keys[0], keys[2], keys[3]))


def test_tt_keeps_a_deeper_entry_of_the_same_key_against_a_shallow_bound():
    import numpy as np
    from mpcmc_engine.search.constants import BOUND_EXACT, BOUND_LOWER, BOUND_UPPER
    from mpcmc_engine.search.tt import BUCKET_WORDS, KEEP_DEEPER_BY, tt_store
    tt = np.zeros(BUCKET_WORDS, dtype=np.uint64)
    key = np.uint64(0x5A5A00FF00FF5A5A)
    tt_store(tt, key, 777, 40, 10, BOUND_LOWER, 0, 1, 0)
    for bound in (BOUND_LOWER, BOUND_UPPER):  # a bound KEEP_DEEPER_BY plies shallower (a quiescence one too) is dropped
        for depth in (10 - KEEP_DEEPER_BY, 0):
            tt_store(tt, key, 555, -300, depth, bound, 0, 2, 0)
            assert stored_entry(tt, key, 0) == (777, 40, 10, BOUND_LOWER)
    tt_store(tt, key, 0, -20, 10 - KEEP_DEEPER_BY + 1, BOUND_UPPER, 0, 2, 0)  # less shallow: it replaces the entry
    assert stored_entry(tt, key, 0) == (777, -20, 10 - KEEP_DEEPER_BY + 1, BOUND_UPPER)
    tt_store(tt, key, 0, 80, 20, BOUND_LOWER, 0, 2, 0)
    tt_store(tt, key, 555, 5, 1, BOUND_EXACT, 0, 2, 0)  # an exact result always replaces it
    assert stored_entry(tt, key, 0) == (555, 5, 1, BOUND_EXACT)


def test_tt_hashfull_counts_current_generation():
    import numpy as np
    from mpcmc_engine.search.constants import BOUND_EXACT
    from mpcmc_engine.search.tt import BUCKET_WORDS, tt_hashfull, tt_store
    tt = np.zeros(1000 * BUCKET_WORDS, dtype=np.uint64)
    assert tt_hashfull(tt, 1) == 0
    for i in range(4000):
        tt_store(tt, np.uint64(i * 0x9E3779B97F4A7C15 % (1 << 64)), 0, 0, 5, BOUND_EXACT, 0, 1, 0)
    full = tt_hashfull(tt, 1)
    assert 500 < full <= 1000
    assert tt_hashfull(tt, 2) == 0  # entries of an earlier search do not count


def test_searcher_tables_start_on_a_cache_line():
    """A TT bucket is one cache line only if the table starts on one (numpy alone starts large arrays 16 bytes
    past a page); the work arrays too, after a resize and for added threads."""
    import numpy as np
    from mpcmc_engine.search.aligned import CACHE_LINE_BYTES, aligned_zeros
    for dtype, length in ((np.uint64, 1 << 17), (np.int64, 1000), (np.int16, 77)):
        array = aligned_zeros(length, dtype)
        assert array.ctypes.data % CACHE_LINE_BYTES == 0
        assert array.shape == (length,) and array.dtype == dtype and array.flags.c_contiguous
        assert not array.any()
    searcher = Searcher(hash_mb=2, threads=1)
    searcher.resize(3)
    searcher.set_threads(3)
    tables = [searcher._tt] + searcher._work
    assert all(table.ctypes.data % CACHE_LINE_BYTES == 0 for table in tables)


def test_tt_prefetch_leaves_the_table_unchanged():
    import numpy as np
    from mpcmc_engine.search.constants import BOUND_EXACT
    from mpcmc_engine.search.tt import BUCKET_WORDS, tt_prefetch, tt_store
    tt = np.zeros(64 * BUCKET_WORDS, dtype=np.uint64)
    tt_store(tt, np.uint64(0xDEADBEEF12345678), 77, 5, 3, BOUND_EXACT, 0, 1, 9)
    before = tt.copy()
    for key in (0, 0xDEADBEEF12345678, (1 << 64) - 1):
        tt_prefetch(tt, np.uint64(key))
    assert np.array_equal(tt, before)


# --- move-ordering histories --------------------------------------------------------------------------------------

def test_history_gravity_stays_within_its_int16_scores():
    """The histories are int16: every gravity update from any score within the bound, by any bonus a cutoff gives,
    lands within +-HISTORY_MAX and equals the update computed in Python integers."""
    import numpy as np
    from mpcmc_engine.search.constants import HISTORY_MAX
    from mpcmc_engine.search.tunables import HISTORY_BONUS_MAX
    from mpcmc_engine.search.history import update_history
    rng = np.random.default_rng(5)
    scores = np.array([-HISTORY_MAX, -HISTORY_MAX + 1, -1, 0, 1, HISTORY_MAX - 1, HISTORY_MAX], dtype=np.int16)
    for _ in range(2000):
        bonus = int(rng.integers(-HISTORY_BONUS_MAX, HISTORY_BONUS_MAX + 1))
        slot = int(rng.integers(len(scores)))
        expected = int(scores[slot]) + bonus - int(scores[slot]) * abs(bonus) // HISTORY_MAX
        update_history(scores, slot, bonus)
        assert int(scores[slot]) == expected and -HISTORY_MAX <= expected <= HISTORY_MAX
