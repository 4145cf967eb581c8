"""The MPC-MC choice over real sub-engines (Stockfish at fixed nodes), and its fault handling with a scripted engine."""

import os
import sys
import time
from pathlib import Path

import chess
import pytest

from mpcmc_engine.mpcmc.limits import parse_call_limit
from mpcmc_engine.mpcmc.pool import WorkerPool
from mpcmc_engine.mpcmc.rollout import Rollout, RolloutSettings
from mpcmc_engine.engine_command import EngineSpec
from mpcmc_engine.mpcmc.subengine import SubEngine, SubEngineError
from mpcmc_engine.mpcmc.values import DRAW

STOCKFISH = "/usr/games/stockfish"
FAKE = str(Path(__file__).with_name("fake_uci_engine.py"))
SCHOLARS_MATE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"

needs_stockfish = pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="Stockfish not installed at /usr/games")


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(scope="module")
def stockfish_pool():
    spec = EngineSpec((STOCKFISH,), "stockfish", {"Threads": 1, "Hash": 16})
    pool = WorkerPool(2, spec, spec)
    yield pool
    pids = [e.pid for w in pool.workers for e in (w.evaluator, w.opponent) if e.pid]
    pool.close()
    time.sleep(0.5)
    assert not [pid for pid in pids if _alive(pid)], "sub-engine processes outlived close()"


def _rollout(pool, mode, fortify=False, nodes=3000):
    limit = parse_call_limit(f"{nodes} nodes")
    return Rollout(pool, RolloutSettings(mode=mode, fortify=fortify, eval_limit=limit, opponent_limit=limit))


@needs_stockfish
@pytest.mark.parametrize("mode", ["half", "one", "two"])
@pytest.mark.parametrize("fortify", [False, True], ids=["plain", "fortified"])
def test_every_mode_finds_mate_in_one(stockfish_pool, mode, fortify):
    board = chess.Board(SCHOLARS_MATE)
    decision = _rollout(stockfish_pool, mode, fortify).decide(board, 5.0, time.monotonic() + 60)
    assert decision.move == chess.Move.from_uci("h5f7")
    assert decision.value.probability == 1.0
    assert decision.complete


@needs_stockfish
@pytest.mark.parametrize("mode", ["half", "one"])
def test_stalemating_move_is_scored_exactly_and_avoided(stockfish_pool, mode):
    # White Kc6 and Qb1 against Ka8: Qb6?? stalemates, almost everything else wins. The stalemate is scored
    # exactly by the rules (a draw), not by asking an engine.
    board = chess.Board("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1")
    stalemating = [m for m in board.legal_moves if _is_stalemate_after(board, m)]
    assert stalemating, "the test position must contain a stalemating move"
    decision = _rollout(stockfish_pool, mode).decide(board, 5.0, time.monotonic() + 60)
    by_move = {r.move: r for r in decision.results}
    for move in stalemating:
        assert by_move[move].exact and by_move[move].value == DRAW
    assert decision.move not in stalemating
    assert decision.value.probability > 0.9


def _is_stalemate_after(board, move):
    after = board.copy()
    after.push(move)
    return after.is_stalemate()


@needs_stockfish
def test_one_step_predicts_the_reply_and_puts_it_in_the_result(stockfish_pool):
    board = chess.Board()
    decision = _rollout(stockfish_pool, "one").decide(board, 5.0, time.monotonic() + 60)
    assert decision.complete and len(decision.results) == 20
    assert all(r.reply is not None for r in decision.results)
    after = board.copy()
    after.push(decision.move)
    assert decision.reply in after.legal_moves


@needs_stockfish
def test_deadline_is_kept_even_with_slow_calls(stockfish_pool):
    # 20 root moves with 1 s calls cannot finish in 0.6 s: the decision still comes in time, with a legal move
    rollout = Rollout(stockfish_pool, RolloutSettings(mode="one", eval_limit=parse_call_limit("1000ms"),
                                                      opponent_limit=parse_call_limit("1000ms")))
    board = chess.Board()
    start = time.monotonic()
    decision = rollout.decide(board, 0.5, start + 0.6)
    assert time.monotonic() - start < 1.5
    assert decision.move in board.legal_moves
    assert not decision.complete


def _fake(mode):
    return EngineSpec((sys.executable, FAKE, mode, "0"), f"fake-{mode}")


@pytest.mark.parametrize("mode", ["crash", "garbage", "hang"])
def test_failing_sub_engine_is_replaced_retried_once_then_reported(mode):
    engine = SubEngine(_fake(mode))
    board = chess.Board()
    start = time.monotonic()
    with pytest.raises(SubEngineError):
        engine.play(board, chess.engine.Limit(time=0.05), deadline=time.monotonic() + 8)
    assert time.monotonic() - start < 9
    assert engine.restarts == 2  # the first process and its replacement both failed
    engine.close()


def test_rollout_with_broken_engines_still_plays_a_legal_move_in_time():
    spec = _fake("crash")
    pool = WorkerPool(2, spec, spec)
    try:
        board = chess.Board()
        start = time.monotonic()
        decision = Rollout(pool, RolloutSettings(mode="one")).decide(board, 0.5, start + 3.0)
        assert decision.move in board.legal_moves
        assert time.monotonic() - start < 4.0
    finally:
        pool.close()
