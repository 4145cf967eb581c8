"""The endgame study: the perfect player scores exactly 1 on WCR, WE and LHS; our search's figures lie in range;
the endgame-study command's output and its refusal of bad arguments."""

import random
import subprocess
import sys

import chess
import pytest

from mpcmc_engine.eval.eval_file import load_evaluation
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.training.endgame.study import (
    EndgameGame, figures, perfect_player, run_study, search_player,
)
from mpcmc_engine.training.endgame_table import dtm, random_start

COMMAND = [sys.executable, "-m", "mpcmc_engine", "endgame-study"]


@pytest.mark.parametrize("piece", [chess.ROOK, chess.QUEEN])
def test_the_perfect_player_scores_one(piece):
    """The table against itself converts every win in exactly its distance to mate and is mated exactly then."""
    games = run_study(piece, 6, perfect_player, seed=3, max_plies=200)
    assert all(game.plies == game.distance for game in games)
    found = figures(games)
    assert (found.attacking_games, found.won, found.defending_games, found.lost) == (6, 6, 6, 6)
    assert (found.wcr, found.we, found.lhs) == (1.0, 1.0, 1.0)


def test_random_starts_are_won_or_lost_for_the_side_to_move():
    """An attacking start is won for its side to move, a defending one lost (not yet mated); both colours occur."""
    rng = random.Random(5)
    attacking = [random_start(chess.QUEEN, True, rng) for _ in range(20)]
    defending = [random_start(chess.ROOK, False, rng) for _ in range(20)]
    assert all(dtm(board) > 0 for board in attacking) and all(dtm(board) < 0 for board in defending)
    assert {board.turn for board in attacking} == {chess.WHITE, chess.BLACK}


def test_figures_by_hand():
    """WCR, WE and LHS of a hand-made list of games; a figure without games is None."""
    games = [EndgameGame(True, 9, 12, 1.0), EndgameGame(True, 15, 18, 1.0), EndgameGame(True, 21, 100, 0.5),
             EndgameGame(False, 10, 8, 0.0), EndgameGame(False, 20, 16, 0.0)]
    found = figures(games)
    assert found.wcr == pytest.approx(2 / 3) and found.we == pytest.approx(12 / 15)
    assert found.lhs == pytest.approx(12 / 15) and (found.won, found.lost) == (2, 2)
    assert figures([]).wcr is None and figures([]).lhs is None


def test_our_search_figures_are_in_range():
    """Four games in each role at 2000 nodes with the linear weights: every figure within [0, 1], every defended
    game lost (the perfect attacker always mates), no game longer than the ply limit."""
    searcher = Searcher(hash_mb=16, threads=1)
    searcher.set_evaluation(load_evaluation("<linear>"))
    games = run_study(chess.ROOK, 4, search_player(searcher, SearchLimits(nodes=2000)), seed=1, max_plies=120)
    found = figures(games)
    assert (found.attacking_games, found.defending_games, found.lost) == (4, 4, 4)
    assert 0.0 <= found.wcr <= 1.0 and (found.we is None or 0.0 < found.we <= 1.0)
    assert 0.0 < found.lhs <= 1.0
    assert all(game.plies <= 120 for game in games)


def test_command_prints_the_figures(engine_env):
    """`endgame-study` plays its games and prints the three figures with their counts."""
    done = subprocess.run(COMMAND + ["--ending", "kqk", "--games", "2", "--nodes", "500", "--eval-file", "<linear>"],
                          capture_output=True, text=True, env=engine_env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "WCR" in done.stdout and "WE" in done.stdout and "of 2 defending" in done.stdout


def test_command_plays_at_a_fixed_depth(engine_env):
    """`--depth` in place of `--nodes`: the games are played at that depth; a depth-1 search of the linear weights
    converts fewer of 6 KRK wins than the perfect player does (all 6), and the two budgets cannot be combined."""
    done = subprocess.run(COMMAND + ["--ending", "krk", "--games", "6", "--depth", "1", "--eval-file", "<linear>"],
                          capture_output=True, text=True, env=engine_env, timeout=300)
    assert done.returncode == 0, done.stderr
    won = int(done.stdout.split("WCR")[1].split()[1])
    assert 0 <= won < 6 and "of 6 attacking" in done.stdout
    both = subprocess.run(COMMAND + ["--ending", "krk", "--games", "2", "--depth", "1", "--nodes", "100"],
                          capture_output=True, text=True, env=engine_env, timeout=120)
    assert both.returncode == 2 and "not allowed with" in both.stderr


@pytest.mark.parametrize("arguments, message", [
    (["--ending", "kbk", "--games", "2", "--nodes", "100"], "--ending must be one of krk, kqk"),
    (["--ending", "krk", "--games", "0", "--nodes", "100"], "must be positive"),
    (["--ending", "krk", "--games", "2", "--depth", "0"], "must be positive"),
    (["--ending", "krk", "--games", "2", "--nodes", "100", "--eval-file", "/nonexistent.json"], "cannot be read"),
])
def test_command_refuses_bad_arguments(engine_env, arguments, message):
    """Bad arguments: exit status 2 and a message naming the problem."""
    done = subprocess.run(COMMAND + arguments, capture_output=True, text=True, env=engine_env, timeout=120)
    assert done.returncode == 2 and message in done.stderr, done.stderr
