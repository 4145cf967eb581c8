"""The one scale of MPC-MC scores and the per-call limit syntax."""

import chess.engine
import pytest

from mpcmc_engine.mpcmc.call_limits import CallLimit, auto_call_seconds, parse_call_limit
from mpcmc_engine.mpcmc.values import DRAW, lost_in, value_of_outcome, value_of_score, won_in
from mpcmc_engine.score_scale import centipawns_of, win_probability


def test_lichess_formula():
    assert win_probability(0) == 0.5
    # 50 + 50 * (2 / (1 + exp(-0.00368208 * 100)) - 1) = 59.10 %
    assert win_probability(100) == pytest.approx(0.59103, abs=1e-5)
    assert win_probability(-100) == pytest.approx(1 - 0.59103, abs=1e-5)
    for cp in (-900, -35, 0, 12, 250, 3000):
        assert centipawns_of(win_probability(cp)) == cp


def test_mates_are_certain_and_shorter_wins_are_better():
    mate_in_1 = value_of_score(chess.engine.Mate(1))
    mate_in_3 = value_of_score(chess.engine.Mate(3))
    mated_in_2 = value_of_score(chess.engine.Mate(-2))
    mated_in_5 = value_of_score(chess.engine.Mate(-5))
    huge = value_of_score(chess.engine.Cp(5000))
    assert mate_in_1.probability == 1.0 and mated_in_2.probability == 0.0
    assert mate_in_1 > mate_in_3 > huge > DRAW > mated_in_5 > mated_in_2
    assert mate_in_3.for_opponent() == lost_in(5)
    assert mate_in_3.uci_score() == ("mate", 3) and mated_in_2.uci_score() == ("mate", -2)
    assert mate_in_3.later(2) == won_in(7) and mated_in_2.later(2) == lost_in(6) and huge.later(2) == huge
    assert value_of_score(chess.engine.Mate(0)) == lost_in(0)
    assert value_of_score(chess.engine.Cp(100)).uci_score() == ("cp", 100)


def test_exact_outcomes():
    mated = chess.Board("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").outcome()
    assert value_of_outcome(mated, chess.WHITE, 1) == won_in(1)
    assert value_of_outcome(mated, chess.BLACK, 2) == lost_in(2)
    assert won_in(1).uci_score() == ("mate", 1) and lost_in(2).uci_score() == ("mate", -1)
    stalemate = chess.Board("k7/8/1QK5/8/8/8/8/8 b - - 0 1").outcome()
    assert value_of_outcome(stalemate, chess.WHITE, 1) == DRAW


@pytest.mark.parametrize("text, expected", [
    ("auto", CallLimit()), ("AUTO", CallLimit()), ("50ms", CallLimit(milliseconds=50)),
    ("200 ms", CallLimit(milliseconds=200)), ("20000 nodes", CallLimit(nodes=20000)),
    ("depth 8", CallLimit(depth=8)), ("depth8", CallLimit(depth=8)),
])
def test_limit_syntax(text, expected):
    assert parse_call_limit(text) == expected


@pytest.mark.parametrize("text", ["", "fast", "50", "ms", "-5ms", "depth"])
def test_bad_limits_are_refused_with_the_accepted_forms(text):
    with pytest.raises(ValueError, match="expected auto, N ms, N nodes or depth N"):
        parse_call_limit(text)


def test_limits_become_engine_limits():
    assert parse_call_limit("20000 nodes").to_engine_limit(1.0) == chess.engine.Limit(nodes=20000)
    assert parse_call_limit("depth 3").to_engine_limit(1.0) == chess.engine.Limit(depth=3)
    assert parse_call_limit("50ms").to_engine_limit(1.0) == chess.engine.Limit(time=0.05)
    assert parse_call_limit("auto").to_engine_limit(0.25) == chess.engine.Limit(time=0.25)


def test_auto_split_over_workers():
    # 40 calls on 2 workers: 20 rounds in 2 s -> 0.1 s each, less 10 ms overhead
    assert auto_call_seconds(2.0, 40, 2, 0.01) == pytest.approx(0.09)
    assert auto_call_seconds(0.001, 40, 1, 0.01) == pytest.approx(0.005)  # never below the minimum
