"""The UCI layer's pure parts, without an engine process: parsers, options, time management, strength levels, WDL,
Syzygy ranking."""

import random

import chess
import pytest

from mpcmc_engine.eval import eval_file
from mpcmc_engine.search import timeman
from mpcmc_engine.search.timeman import GoParams, plan
from mpcmc_engine.uci import strength
from mpcmc_engine.uci.commands import parse_bench, parse_go, parse_position, parse_setoption
from mpcmc_engine.uci.format import InfoReport, divide_lines, format_bestmove, format_info, wdl_from_score
from mpcmc_engine.uci.options import DEFAULT_EVALUATION, EMPTY, MPCMC_OPTIONS, OPTIONS, Options
from mpcmc_engine.uci.tablebase import RootTablebase, best_moves


def test_parse_go_any_order_and_garbage():
    params, problems = parse_go("depth 5 wtime 1000 searchmoves e2e4 d2d4 btime x binc 10 ponder bogus".split())
    assert (params.depth, params.wtime, params.btime, params.binc, params.ponder) == (5, 1000, None, 10, True)
    assert params.searchmoves == ["e2e4", "d2d4"]
    assert len(problems) == 3 and "btime" in problems[0] and "bogus" in problems[2]  # x: also an unknown word
    params, problems = parse_go(["wtime", "100"])
    assert params.wtime == 100 and params.btime is None and not problems
    params, problems = parse_go(["depth", "0", "nodes"])
    assert params.depth is None and len(problems) == 2


def test_parse_position():
    assert parse_position(["startpos"]) == (None, [])
    assert parse_position("startpos moves e2e4 e7e5".split()) == (None, ["e2e4", "e7e5"])
    fen = "8/8/8/8/8/8/8/K1k5 w - -"
    assert parse_position(["fen"] + fen.split() + ["moves", "a1a2"]) == (fen, ["a1a2"])
    for bad in ([], ["fen"], ["startpos", "e2e4"], ["nonsense"]):
        with pytest.raises(ValueError):
            parse_position(bad)


def test_parse_bench():
    assert parse_bench([]) is None and parse_bench(["7"]) == 7
    for bad in (["x"], ["0"]):
        with pytest.raises(ValueError):
            parse_bench(bad)


def test_divide_lines_in_stockfish_format():
    assert list(divide_lines([("e2e4", 20), ("d2d4", 20)])) == ["e2e4: 20", "d2d4: 20", "", "Nodes searched: 40"]


def test_parse_setoption():
    assert parse_setoption("name Move Overhead value 100".split()) == ("Move Overhead", "100")
    assert parse_setoption("name Clear Hash".split()) == ("Clear Hash", None)
    assert parse_setoption("name SyzygyPath value /a b/c".split()) == ("SyzygyPath", "/a b/c")
    with pytest.raises(ValueError):
        parse_setoption(["Hash", "value", "3"])


def test_option_table_declares_standard_types_with_integer_defaults():
    lines = Options().declarations()
    assert "option name Hash type spin default 16 min 1 max 65536" in lines
    assert ("option name SearchAlgorithm type combo default pvs var pvs var mtdbi var mcts var mcts-rollout"
            in lines)
    assert "option name Clear Hash type button" in lines
    for option in OPTIONS:
        assert option.kind in ("check", "spin", "combo", "button", "string")
        if option.kind == "spin":
            assert isinstance(option.default, int) and option.low <= option.default <= option.high


def test_option_values_are_validated_case_insensitively():
    options = Options()

    def parsed(name, text):
        option, value = options.parse(name, text)
        return option.name, value

    assert parsed("hash", "64") == ("Hash", 64)
    assert parsed("uci_showwdl", "TRUE") == ("UCI_ShowWDL", True)
    assert parsed("searchalgorithm", "MTDbi") == ("SearchAlgorithm", "mtdbi")
    assert parsed("SearchAlgorithm", "MCTS-Rollout") == ("SearchAlgorithm", "mcts-rollout")
    assert parsed("SyzygyPath", "") == ("SyzygyPath", EMPTY)
    assert parsed("EvalFile", "<network>") == ("EvalFile", DEFAULT_EVALUATION)
    assert DEFAULT_EVALUATION == eval_file.DEFAULT_EVALUATION  # options.py names it without importing eval/
    assert parsed("clear hash", None) == ("Clear Hash", None)
    for name, value in (("Hash", "0"), ("Hash", "big"), ("Ponder", "yes"), ("SearchAlgorithm", "alphabeta"),
                        ("NoSuchOption", "1"), ("MultiPV", None)):
        with pytest.raises(ValueError):
            options.parse(name, value)
    assert options["Hash"] == 16  # parse stores nothing
    assert options.with_value("Hash", 64)["Hash"] == 64 and options["Hash"] == 16


def test_every_option_action_is_an_engine_method():
    from mpcmc_engine.uci.engine import Engine

    actions = {option.on_change for option in OPTIONS + MPCMC_OPTIONS if option.on_change}
    assert actions and all(callable(getattr(Engine, action, None)) for action in actions)


@pytest.mark.parametrize("time_ms,inc_ms,ply", [(1000, 10, 0), (1000, 10, 120), (100, 0, 40), (30, 10, 60),
                                                (5, 0, 10), (60000, 0, 0), (300000, 2000, 80)])
def test_clock_budget_never_exceeds_the_clock(time_ms, inc_ms, ply):
    budget = plan(GoParams(wtime=time_ms, btime=time_ms, winc=inc_ms, binc=inc_ms), True, ply, 30)
    assert 0 < budget.maximum and budget.optimum <= budget.maximum
    assert budget.maximum <= max(1, 0.8 * time_ms)


def test_budget_special_cases():
    assert plan(GoParams(depth=5), True, 0, 30) is None
    assert plan(GoParams(wtime=100), False, 0, 30) is not None  # only the other side's clock: use it
    movetime = plan(GoParams(movetime=1000), True, 0, 30)
    assert movetime.maximum == movetime.optimum == 1000 - 35
    assert plan(GoParams(movetime=20), True, 0, 30).maximum == 10
    tournament = plan(GoParams(wtime=60000, btime=60000, movestogo=1), True, 40, 30)
    assert tournament.maximum < 60000 * 0.8


@pytest.mark.parametrize("ply,kept", [(0, 0.55), (30, 0.775), (60, 1.0), (100, 1.0)])
def test_sudden_death_saves_time_early_for_later_moves(monkeypatch, ply, kept):
    clock = GoParams(wtime=10000, btime=10000, winc=100, binc=100)
    tournament = GoParams(wtime=10000, btime=10000, movestogo=20)
    saved, tournament_saved = plan(clock, True, ply, 30), plan(tournament, True, ply, 30)
    monkeypatch.setattr(timeman, "EARLY_SAVING", 0.0)
    unsaved = plan(clock, True, ply, 30)
    assert saved.optimum == pytest.approx(kept * unsaved.optimum)
    assert (saved.maximum < unsaved.maximum) == (kept < 1)
    assert plan(tournament, True, ply, 30) == tournament_saved  # movestogo: Stockfish's formulas unchanged


def _sudden_death(time_ms, inc_ms):
    return GoParams(wtime=time_ms, btime=time_ms, winc=inc_ms, binc=inc_ms)


@pytest.mark.parametrize("time_ms", [50, 100, 300, 1000, 3000, 10000, 60000, 600000])
@pytest.mark.parametrize("inc_ms", [0, 10, 100, 2000])
@pytest.mark.parametrize("overhead_ms", [0, 10, 30, 100, 300, 1000, 5000])
@pytest.mark.parametrize("ply", [16, 80])
def test_any_clock_and_overhead_leaves_time_to_think_within_the_clock(time_ms, inc_ms, overhead_ms, ply):
    """Optimum > 0 (a share of what the clock can pay) while the clock allows; maximum within the clock."""
    budget = plan(_sudden_death(time_ms, inc_ms), True, ply, overhead_ms)
    payable = time_ms - overhead_ms - timeman.PYTHON_MARGIN_MS
    assert 0 < budget.optimum <= budget.maximum
    if payable > 0:
        assert budget.maximum <= payable
        assert budget.optimum >= 0.005 * payable
    else:
        assert budget.maximum == timeman.MIN_MAXIMUM_MS


def test_short_clocks_and_large_overheads_are_not_eaten_by_the_reserve():
    """The cases of issue 80: 1+0.01 with the default overhead, and lichess-bot's overheads at 10+0.1."""
    bullet = plan(_sudden_death(1000, 10), True, 16, 30)
    assert bullet.optimum >= 15 and bullet.maximum >= 60
    assert plan(_sudden_death(2000, 0), True, 16, 30).optimum >= 20
    default = plan(_sudden_death(10000, 100), True, 16, 30)
    for overhead_ms in (100, 300, 1000):
        assert plan(_sudden_death(10000, 100), True, 16, overhead_ms).optimum >= 0.85 * default.optimum


@pytest.mark.parametrize("overhead_ms", [30, 300])
def test_repeating_movestogo_spreads_the_period_and_keeps_the_last_move_within_the_clock(overhead_ms):
    """40/4: about a fortieth of the clock for the first move of the period, at most what it can pay for the last."""
    first = plan(GoParams(wtime=4000, btime=4000, movestogo=40), True, 20, overhead_ms)
    assert 40 <= first.optimum <= 200
    last = plan(GoParams(wtime=400, btime=400, movestogo=1), True, 98, overhead_ms)
    assert 0 < last.maximum <= 400 - overhead_ms - timeman.PYTHON_MARGIN_MS


def test_a_late_start_plans_the_clock_as_it_stands():
    """A `go` that waited 1.5 s (behind the warm-up) gets the deadlines of a fresh `go` on the clock that is left."""
    late = plan(_sudden_death(60000, 0), True, 20, 30, elapsed_ms=1500)
    fresh = plan(_sudden_death(58500, 0), True, 20, 30)
    assert late.optimum == pytest.approx(1500 + fresh.optimum)
    assert late.maximum == pytest.approx(1500 + fresh.maximum)
    assert plan(_sudden_death(1000, 0), True, 20, 30, elapsed_ms=1500).maximum == 1500 + timeman.MIN_MAXIMUM_MS
    assert plan(GoParams(movetime=1000), True, 0, 30, elapsed_ms=400).maximum == 1000 - 35


def test_strength_levels_weaken_monotonically_and_full_strength_is_unlimited():
    assert strength.strength_for(False, 1500, strength.MAX_SKILL) is None
    assert strength.strength_for(True, strength.MAX_ELO, strength.MAX_SKILL) is None
    levels = [strength.strength_for(True, elo, strength.MAX_SKILL) for elo in range(strength.MIN_ELO, 2400, 40)]
    assert all(weaker.nodes <= stronger.nodes and weaker.temperature >= stronger.temperature
               for weaker, stronger in zip(levels, levels[1:]))
    assert levels[0].nodes < levels[-1].nodes and levels[0].elo == strength.MIN_ELO
    assert strength.strength_for(False, 2400, 0).elo == strength.MIN_ELO  # Skill Level 0: the weakest
    assert strength.strength_for(True, 2000, 10) == strength.strength_for(True, strength.skill_elo(10), 20)


def test_weakened_choice_prefers_near_equal_lines_and_never_blunders_a_queen():
    rng = random.Random(7)
    picks = [strength.choose_line([30, 20, -900, -950], 60.0, rng) for _ in range(2000)]
    assert picks.count(2) == picks.count(3) == 0
    assert 0.35 < picks.count(1) / len(picks) < 0.55  # exp(-10/60) against 1
    assert all(strength.choose_line([30, 20, 10], 0.0, rng) == 0 for _ in range(100))
    assert strength.choice_weights([strength.MATE_CP - 2, 500], 90.0)[0] > 0.99


def test_wdl_model():
    assert wdl_from_score("cp", 0) == (119, 762, 119)
    assert wdl_from_score("mate", 3) == (1000, 0, 0) and wdl_from_score("mate", -1) == (0, 0, 1000)
    win, draw, loss = wdl_from_score("cp", 250)
    assert win > 900 and loss <= 1 and win + draw + loss == 1000
    assert wdl_from_score("cp", -100000) == (0, 0, 1000)


def test_info_and_bestmove_text():
    report = InfoReport(7, 9, 1, "cp", 25, "lowerbound", 1234, 5678, 3, 17, ["e2e4", "e7e5"], (300, 500, 200))
    assert format_info(report) == ("info depth 7 seldepth 9 multipv 1 score cp 25 lowerbound wdl 300 500 200 "
                                   "nodes 1234 nps 5678 hashfull 3 time 17 pv e2e4 e7e5")
    report = InfoReport(3, 5, 2, "cp", -8, "", 400, 9000, 12, 44, ["d2d4"], visits=120)
    assert format_info(report) == ("info depth 3 seldepth 5 multipv 2 score cp -8 nodes 400 nps 9000 hashfull 12 "
                                   "time 44 pv d2d4 string visits 120")
    assert format_bestmove(None) == "bestmove 0000"
    assert format_bestmove("e2e4", "e7e5") == "bestmove e2e4 ponder e7e5"
    assert format_bestmove("e2e4") == "bestmove e2e4"


def test_syzygy_keeps_fastest_win_with_fake_probes():
    board = chess.Board("8/8/8/8/8/2k5/8/K6Q w - - 0 1")
    # from the opponent's view after each move: -2 = he loses; dtz distance grows with the queen's file

    def wdl(position):
        return -2 if position.queens else 0

    def dtz(position):
        queens = position.pieces(chess.QUEEN, chess.WHITE)
        return -(1 + chess.square_file(next(iter(queens), 0))) if position.queens else 0

    moves = best_moves(board, wdl, dtz)
    assert moves and all(board.piece_at(chess.parse_square(m[:2])).piece_type == chess.QUEEN for m in moves)
    assert {chess.square_file(chess.parse_square(m[2:4])) for m in moves} == {0}


def test_syzygy_bad_paths_are_refused(tmp_path):
    with pytest.raises(ValueError, match="not a directory"):
        RootTablebase.open(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="no Syzygy tables"):
        RootTablebase.open(str(tmp_path))
    assert RootTablebase.open(EMPTY).root_moves(chess.Board("8/8/8/8/8/2k5/8/K6Q w - - 0 1")) is None
