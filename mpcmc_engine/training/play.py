"""Producing TrainingRecords: PGN games replayed, self-play with the engine's own search, and mentor games.

Every function takes the searcher (a search.Searcher with the weights to use) and a `random.Random` seeded per game,
and returns a TrainingRecord; leaves (for TD-Leaf/TD-Stem) come from our own search: the move-choosing search in
self-play, a fixed-depth search of each played position in PGN and mentor games.
"""

from typing import Optional

import chess
import chess.engine

from mpcmc_engine.bitboard.position import Position, ended_by_rules
from mpcmc_engine.training.records import RecordBuilder, leaf_search_limits
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.uci_process import play_within

MAX_PLIES = 300             # longer games are scored as draws
ADJUDICATION_CP = 1500      # self-play: a search score this large for the side to move decides the game
def pgn_record(game, searcher, builder: RecordBuilder, leaf_depth: int):
    """The record of a PGN game (pgn_games.PgnGame) built by `builder` (a fresh RecordBuilder); with leaves, they come
    from a `leaf_depth` search of each played position."""
    position = Position(game.fen)
    searcher.clear()
    for text in game.moves:
        builder.add(position, searcher.search(position, leaf_search_limits(leaf_depth))
                    if builder.with_leaves else None)
        position.push(position.parse_uci(text))
    return builder.build(game.result, game.label)


def _outcome_value(board: chess.Board):
    """White's result of a finished game (mate, stalemate, repetition, fifty moves, no material), else None."""
    outcome = ended_by_rules(board)
    if outcome is None:
        return None
    return 0.5 if outcome.winner is None else float(outcome.winner == chess.WHITE)


def _explore(position, move, epsilon, rng):
    """`move`, or with probability `epsilon` a uniformly random legal move."""
    return rng.choice(position.legal_moves()) if rng.random() < epsilon else move


def selfplay_record(opening, searchers, limits: SearchLimits, epsilon: float, rng, builder, label: str,
                    adjudication_cp: Optional[int] = ADJUDICATION_CP):
    """A game of our search against itself from `opening` (match.openings.Opening), each move searched within
    `limits` (a node count or a fixed depth), exploring
    with `epsilon`; `searchers` = (white's, black's) search.Searcher (one object twice in self-play, two with
    different weights in a match). Each position before a move goes to `builder.add(position, search_result)`; the
    game's end to `builder.build(white's result, label)`, whose value is returned. Adjudicated when the mover's
    search score reaches `adjudication_cp` (or mate); with None the game ends by the rules only. Drawn after
    MAX_PLIES."""
    board = opening.board()
    position = Position.from_board(board)
    for searcher in set(searchers):
        searcher.clear()
    result = _outcome_value(board)
    plies = 0
    while result is None and plies < MAX_PLIES:
        searcher = searchers[0] if position.white_to_move else searchers[1]
        found = searcher.search(position, limits)
        builder.add(position, found)
        plies += 1
        if adjudication_cp is not None and (found.is_mate or abs(found.score) >= adjudication_cp):
            result = float((found.score > 0) == position.white_to_move)
            break
        move = _explore(position, found.best_move, epsilon, rng)
        board.push_uci(position.uci(move))
        position.push(move)
        result = _outcome_value(board)
    return builder.build(0.5 if result is None else result, label)


def mentor_record(opening, engines, nodes: int, strong_is_white: bool, epsilon: float, rng, searcher,
                  builder: RecordBuilder, leaf_depth: int, label: str, move_timeout_s: float):
    """A game of the mentor against itself: engines = (strong, weak) chess.engine.SimpleEngine, the strong one at
    `nodes` per move, the weak one at nodes // 10; exploring with `epsilon`; drawn after MAX_PLIES; its record built
    by `builder` (a fresh RecordBuilder; with leaves, from a `leaf_depth` search of each played position). Raise
    TimeoutError when a move takes longer than `move_timeout_s`, chess.engine.EngineError or EngineTerminatedError
    when an engine answers nonsense or dies."""
    strong, weak = engines
    board = opening.board()
    position = Position.from_board(board)
    searcher.clear()
    result = _outcome_value(board)
    while result is None and len(builder.played) < MAX_PLIES:
        builder.add(position, searcher.search(position, leaf_search_limits(leaf_depth))
                    if builder.with_leaves else None)
        strong_to_move = board.turn == (chess.WHITE if strong_is_white else chess.BLACK)
        engine, budget = (strong, nodes) if strong_to_move else (weak, max(1, nodes // 10))
        chosen = play_within(engine, board, chess.engine.Limit(nodes=budget), move_timeout_s,
                             info=chess.engine.INFO_NONE).move
        if chosen is None:
            raise ValueError(f"the mentor gave no move in {board.fen()}")
        move = _explore(position, position.parse_uci(chosen.uci()), epsilon, rng)
        board.push_uci(position.uci(move))
        position.push(move)
        result = _outcome_value(board)
    return builder.build(0.5 if result is None else result, label)
