"""Our search against the perfect player (endgame_table) in K+R v K or K+Q v K: games from random won positions
(our search attacking) and random lost positions (our search defending), and the study's three figures.

WCR (win conversion rate) = attacking games won / attacking games; WE (win efficiency) = mean distance to mate at
the start of the won games / their mean length; LHS (loss holding score) = mean length of the lost games / their
mean distance to mate at the start. Lengths and distances are in plies; a perfect player scores 1 on each. A game
is drawn by stalemate, K v K, threefold repetition, the fifty-move rule or reaching the ply limit.
"""

import math
import random
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

import chess
import numpy as np

from mpcmc_engine.bitboard.position import Position, ended_by_rules
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.training.endgame_table import best_move, dtm, random_start

Player = Callable[[chess.Board, Position], chess.Move]   # (the game's board, the same as a Position) -> its move


@dataclass(frozen=True)
class EndgameGame:
    """One finished game: whether our side attacked, the start's distance to mate (plies, > 0), the plies played and
    our side's result (1 won, 0.5 drawn, 0 lost)."""

    attacking: bool
    distance: int
    plies: int
    result: float


@dataclass(frozen=True)
class EndgameFigures:
    """The study's figures over its games; a figure is None when it has no game to be measured on."""

    attacking_games: int
    won: int
    defending_games: int
    lost: int
    wcr: Optional[float]
    we: Optional[float]
    lhs: Optional[float]


def _ended(board: chess.Board, max_plies: int) -> bool:
    """Whether the game on `board` is over: mate, stalemate, K v K, repetition, fifty moves or max_plies played."""
    return ended_by_rules(board) is not None or len(board.move_stack) >= max_plies


def play_game(start: chess.Board, ours: Player, attacking: bool, max_plies: int) -> EndgameGame:
    """A game from `start` (our side to move) of `ours` against the perfect player; our side attacks when
    `attacking` (start won for it) and defends otherwise (start lost for it)."""
    distance = abs(dtm(start) or 0)
    board = start.copy()
    position = Position.from_board(board)
    our_colour = board.turn
    while not _ended(board, max_plies):
        move = ours(board, position) if board.turn == our_colour else best_move(board)
        position.push(position.parse_uci(move.uci()))
        board.push(move)
    result = 0.5 if not board.is_checkmate() else float(board.turn != our_colour)
    return EndgameGame(attacking, distance, len(board.move_stack), result)


def perfect_player(board: chess.Board, position: Position) -> chess.Move:
    """The table's move (a Player: the reference that scores 1 on every figure)."""
    return best_move(board)


def search_player(searcher, limits: SearchLimits) -> Player:
    """A Player that searches to `limits` (nodes or a fixed depth) with `searcher` (a search.Searcher holding the
    evaluation to measure), cleared at each game's first move (our side moves first)."""
    def play(board: chess.Board, position: Position) -> chess.Move:
        if not board.move_stack:
            searcher.clear()
        return chess.Move.from_uci(position.uci(searcher.search(position, limits).best_move))
    return play


def figures(games: List[EndgameGame]) -> EndgameFigures:
    """WCR, WE and LHS (see the module docstring) of `games`."""
    attacking = [game for game in games if game.attacking]
    won = [game for game in attacking if game.result == 1.0]
    lost = [game for game in games if not game.attacking and game.result == 0.0]
    wcr = len(won) / len(attacking) if attacking else None
    we = float(np.mean([g.distance for g in won]) / np.mean([g.plies for g in won])) if won else None
    lhs = float(np.mean([g.plies for g in lost]) / np.mean([g.distance for g in lost])) if lost else None
    return EndgameFigures(len(attacking), len(won), len(games) - len(attacking), len(lost), wcr, we, lhs)


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> Tuple[float, float]:
    """The Wilson score interval of a proportion, successes of `trials` (> 0), at `z` (1.96: 95 %)."""
    share = successes / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def run_study(piece: int, games: int, ours: Player, seed: int, max_plies: int,
              on_game: Callable[[EndgameGame], None] = lambda game: None) -> List[EndgameGame]:
    """`games` attacking and `games` defending games of `ours` from starts drawn with `seed` (alternating roles),
    each passed to `on_game` when finished; returned in the order played."""
    rng = random.Random(seed)
    played = []
    for number in range(2 * games):
        attacking = number % 2 == 0
        game = play_game(random_start(piece, attacking, rng), ours, attacking, max_plies)
        on_game(game)
        played.append(game)
    return played
