"""The MPC-MC choice over real sub-engines (Stockfish at fixed nodes), and its fault handling with a scripted engine."""

import os
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from mpcmc_engine.mpcmc.call_limits import parse_call_limit
from mpcmc_engine.mpcmc.config import config_from_options
from mpcmc_engine.mpcmc.pool import WorkerPool
from mpcmc_engine.mpcmc.rollout import Rollout, RolloutSettings
from mpcmc_engine.uci_process import EngineSpec, this_engine_command
from mpcmc_engine.mpcmc.subengine import SubEngine, SubEngineError
from mpcmc_engine.mpcmc.values import DRAW, value_of_score

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


@pytest.fixture(scope="module")
def internal_pool():
    spec = EngineSpec(tuple(this_engine_command("--plain")), "internal", {})
    pool = WorkerPool(2, spec, spec)
    yield pool
    pool.close()


@pytest.mark.parametrize("engine", ["internal", pytest.param("stockfish", marks=needs_stockfish)])
@pytest.mark.parametrize("mode", ["half", "one"])
def test_capture_that_wins_material_only_if_the_reply_is_ignored_is_avoided(request, engine, mode):
    # Qxd4 wins a knight, and loses the queen to ...exd4 (then king against king and pawn); every other move keeps
    # the queen and wins. One-step predicts the recapture and scores the position after it; half-step scores the
    # position after Qxd4 from Black's side, whose search finds the recapture.
    pool = request.getfixturevalue(f"{engine}_pool")
    board = chess.Board("4k3/8/8/4p3/3n4/8/8/3QK3 w - - 0 1")
    trap = chess.Move.from_uci("d1d4")
    decision = _rollout(pool, mode).decide(board, 5.0, time.monotonic() + 60)
    assert decision.complete and len(decision.results) == 16
    trap_result = next(r for r in decision.results if r.move == trap)
    if mode == "one":
        assert trap_result.reply == chess.Move.from_uci("e5d4")
    assert trap_result.value.probability < 0.6
    assert decision.move != trap and decision.value.probability > trap_result.value.probability + 0.15


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


def _opponents_view(board, move, nodes):
    """Our value of `move` as a separate Stockfish sees it: its score (clean hash, `nodes` nodes) of the position
    after the move, from our side."""
    after = board.copy()
    after.push(move)
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        result = engine.play(after, chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_SCORE, game=object())
        return value_of_score(result.info["score"].pov(after.turn)).for_opponent()


@needs_stockfish
@pytest.mark.parametrize("rank", ["evaluator", "opponent"])
def test_two_step_expands_the_root_moves_ranked_best_by_its_ranking(stockfish_pool, rank):
    # 20 root moves, 10% kept: 2 expanded. `evaluator` ranks by the one-step values of a one-step decision at the same
    # nodes (the evaluator's value after the predicted reply); `opponent` by the nominal opponent's own score of the
    # position after each move, as a separate Stockfish at the same nodes with a clean hash reports it
    board, nodes = chess.Board(), 2000
    limit = parse_call_limit(f"{nodes} nodes")
    settings = RolloutSettings(mode="two", two_step_keep=0.1, two_step_rank=rank, eval_limit=limit,
                               opponent_limit=limit)
    decision = Rollout(stockfish_pool, settings).decide(board, 30.0, time.monotonic() + 120)
    expanded = {r.move for r in decision.results if r.expanded}
    assert len(expanded) == 2 and decision.move in expanded
    if rank == "evaluator":
        one_step = _rollout(stockfish_pool, "one", nodes=nodes).decide(board, 10.0, time.monotonic() + 60)
        ranking = {r.move: r.value for r in one_step.results}
    else:
        ranking = {move: _opponents_view(board, move, nodes) for move in board.legal_moves}
    assert min(ranking[move] for move in expanded) >= max(v for move, v in ranking.items() if move not in expanded)


@needs_stockfish
def test_deadline_is_kept_even_with_slow_calls(stockfish_pool):
    # 20 root moves with 1 s calls cannot finish in 0.6 s: the decision still comes in time, with a legal move; the
    # calls in flight were cut to end before the deadline, so no process was killed (a restart costs seconds)
    stockfish_pool.start(with_opponents=True)
    engines = [e for w in stockfish_pool.workers for e in (w.evaluator, w.opponent)]
    pids = [engine.pid for engine in engines]
    rollout = Rollout(stockfish_pool, RolloutSettings(mode="one", eval_limit=parse_call_limit("1000ms"),
                                                      opponent_limit=parse_call_limit("1000ms")))
    board = chess.Board()
    start = time.monotonic()
    decision = rollout.decide(board, 0.5, start + 0.6)
    elapsed = time.monotonic() - start
    print(f"deadline 0.6 s -> decision after {elapsed:.3f} s")
    assert elapsed < 3.0  # generous for a busy machine; without the deadline it takes 20 s
    assert decision.move in board.legal_moves
    assert not decision.complete
    time.sleep(0.3)
    assert [engine.pid for engine in engines] == pids and all(_alive(pid) for pid in pids)


def _fake(mode):
    return EngineSpec((sys.executable, FAKE, mode, "0"), f"fake-{mode}")


@pytest.mark.parametrize("mode", ["crash", "garbage", "hang"])
def test_failing_sub_engine_is_replaced_retried_once_then_reported(mode):
    engine = SubEngine(_fake(mode))
    board = chess.Board()
    start = time.monotonic()
    with pytest.raises(SubEngineError):
        engine.play(board, chess.engine.Limit(time=0.05), deadline=time.monotonic() + 8)
    assert time.monotonic() - start < 12
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
        assert time.monotonic() - start < 6.0
    finally:
        pool.close()


@needs_stockfish
def test_fortification_plays_the_evaluators_root_move_when_its_value_beats_every_one_step_value():
    # White to move; White actually wins with the f6 breakthrough, but a depth-1 evaluator sees only White's move and
    # a quiescence search, so at the root it likes f4 (about -190 cp). The depth-10 nominal opponent answers every
    # White move with a quiet reply (...f6, ...gxf6, ...Kb2/...Kd2) that the root search never looked at, and after
    # it the same evaluator sees White about a pawn worse: each one-step value is below the root value (best:
    # g5 ...f6, 0.255 against 0.331 in win probability), so fortification replaces g5 with the evaluator's f4.
    # Depth limits and a new game before every call (the evaluator's default, the opponent's always) make it
    # repeatable.
    board = chess.Board("8/5pp1/7p/5P1P/2p3P1/2k5/5P2/2K5 w - - 0 1")
    eval_limit, opponent_limit = parse_call_limit("depth 1"), parse_call_limit("depth 10")
    spec = EngineSpec((STOCKFISH,), "stockfish", {"Threads": 1, "Hash": 16})
    pool = WorkerPool(1, spec, spec)
    try:
        def decide(fortify):
            settings = RolloutSettings(mode="one", fortify=fortify, eval_limit=eval_limit,
                                       opponent_limit=opponent_limit)
            return Rollout(pool, settings).decide(board, 5.0, time.monotonic() + 60)

        fortified = decide(True)
        plain = decide(False)
        root_move, root_value = pool.workers[0].evaluator.analyse(board, eval_limit.to_engine_limit(0.0), fresh=True)
    finally:
        pool.close()

    assert fortified.complete and len(fortified.results) == board.legal_moves.count()
    best_one_step = max(fortified.results, key=lambda r: r.value)
    assert fortified.fortified and fortified.reply is None
    assert (fortified.move, fortified.value) == (root_move, root_value)
    assert fortified.move != best_one_step.move
    assert all(fortified.value > r.value for r in fortified.results)
    assert fortified.value.probability - best_one_step.value.probability > 0.05  # measured: 0.076

    assert plain.complete and not plain.fortified
    assert plain.move == max(plain.results, key=lambda r: r.value).move == best_one_step.move
    assert plain.value == best_one_step.value and plain.move != fortified.move


def test_internal_sub_engines_keep_no_move_overhead_unless_told():
    # a 50 ms call of this engine searched 29 ms with its default Move Overhead of 30 ms
    config = config_from_options({"MPCMC": "one", "MPCMC_Opponent": "internal",
                                  "MPCMC_EvaluatorOptions": "Move Overhead=12; Hash=8"})
    assert config.opponent.options == {"Move Overhead": 0}
    assert config.evaluator.options == {"Move Overhead": "12", "Hash": "8"}
    assert "--plain" in config.evaluator.command
    external = config_from_options({"MPCMC": "one", "MPCMC_Evaluator": STOCKFISH})
    assert external.evaluator.options == {}
