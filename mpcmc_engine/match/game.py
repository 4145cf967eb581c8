"""One game between two UCI engines: the rules, the clock, score adjudication, and engine failures as losses.

The game ends by the rules (`ended_by_rules`: checkmate, stalemate, insufficient material, a position on the board
for the third time, fifty moves without a capture or pawn move), by optional adjudication on both engines' reported
scores, or by a failure of the engine to move:
- time forfeit: with a clock, it took longer than its remaining time plus `time_margin_s` (measured by the runner
  around the whole request, so it includes the protocol round trip); a draw instead when the opponent has no
  mating material;
- abandoned: the engine process died, or (without a clock) gave no move within the limit plus `hang_timeout_s`;
- rules infraction: an illegal, null or unparsable bestmove.
"""

import time
from dataclasses import dataclass
from typing import Optional

import chess
import chess.engine

from mpcmc_engine.bitboard.position import ended_by_rules
from mpcmc_engine.match.clock import Clock, TimeControl
from mpcmc_engine.uci_process import play_within
from mpcmc_engine.match.openings import Opening

MATE_CP = 100_000  # centipawn value of a mate score in adjudication


@dataclass(frozen=True)
class Adjudication:
    """Score thresholds: resign when both engines agree one side is `resign_cp` behind for `resign_moves` moves
    each; draw when both report |score| <= `draw_cp` for `draw_moves` moves each from move `draw_after` on.
    A moves value of 0 disables that rule."""

    resign_cp: int = 0
    resign_moves: int = 0
    draw_cp: int = 0
    draw_moves: int = 0
    draw_after: int = 0


@dataclass(frozen=True)
class MoveLimits:
    """Fixed limits sent with every `go` of an engine (any combination; none at all with a clock alone)."""

    movetime_s: Optional[float] = None
    nodes: Optional[int] = None
    depth: Optional[int] = None

    def __bool__(self) -> bool:
        return any(value is not None for value in (self.movetime_s, self.nodes, self.depth))


@dataclass(frozen=True)
class GameSettings:
    """The clock, the match-wide fixed limits per move, the failure tolerances and adjudication of every game."""

    time_control: Optional[TimeControl] = None
    limits: MoveLimits = MoveLimits()
    time_margin_s: float = 0.1
    hang_timeout_s: float = 30.0
    adjudication: Adjudication = Adjudication()
    fresh_hash: bool = False  # `ucinewgame` before every move: with fixed nodes the play is then reproducible


@dataclass
class FinishedGame:
    """A finished game: the final board (root + every move), a comment per engine move, the PGN result and
    Termination, the reason in words, and the colour whose engine failed (None when no engine failed)."""

    opening: Opening
    board: chess.Board
    comments: list
    result: str
    termination: str
    reason: str
    offender: Optional[chess.Color] = None


def loss_for(color: chess.Color) -> str:
    """The PGN result of a game lost by `color`."""
    return "0-1" if color == chess.WHITE else "1-0"


def score_text(score: Optional[chess.engine.Score]) -> str:
    """A reported score from the mover's view as a PGN comment shows it (`+0.35`, `-M3`, `?`)."""
    if score is None:
        return "?"
    mate = score.mate()
    if mate is not None:
        return f"{'+' if mate > 0 else '-'}M{abs(mate)}"
    return f"{score.score(mate_score=0) / 100:+.2f}"  # not a mate: its centipawns


def adjudicated(board: chess.Board, white_scores: list, rules: Adjudication):
    """Return (result, reason) when the last moves' scores (White's view, None when unreported) meet a rule."""
    if rules.resign_moves and len(white_scores) >= 2 * rules.resign_moves:
        recent = white_scores[-2 * rules.resign_moves:]
        if None not in recent:
            for sign, result, loser in ((1, "0-1", "White"), (-1, "1-0", "Black")):
                if all(sign * score <= -rules.resign_cp for score in recent):
                    return result, f"{loser} resigns: both engines scored it {rules.resign_cp} cp or more behind " \
                                   f"for {rules.resign_moves} moves"
    if rules.draw_moves and board.fullmove_number >= rules.draw_after and len(white_scores) >= 2 * rules.draw_moves:
        recent = white_scores[-2 * rules.draw_moves:]
        if None not in recent and all(abs(score) <= rules.draw_cp for score in recent):
            return "1/2-1/2", f"draw: both engines scored within {rules.draw_cp} cp for {rules.draw_moves} moves"
    return None


def move_limit(limits: MoveLimits, clock: Optional[Clock], color: chess.Color) -> chess.engine.Limit:
    """The UCI `go` limit for `color`: its fixed limits plus both clocks when there is a clock."""
    limit = chess.engine.Limit(time=limits.movetime_s, nodes=limits.nodes, depth=limits.depth)
    if clock is not None:
        limit.white_clock, limit.black_clock = clock.remaining[chess.WHITE], clock.remaining[chess.BLACK]
        limit.white_inc = limit.black_inc = clock.time_control.increment_s
        limit.remaining_moves = clock.moves_to_go(color)
    return limit


def play_game(engines: dict, names: dict, opening: Opening, settings: GameSettings, game_id: object,
              own_limits: Optional[dict] = None, keeps_hash: Optional[dict] = None) -> FinishedGame:
    """Play `opening` to the end with engines[color] (chess.engine.SimpleEngine) named names[color]; an engine
    with limits in `own_limits` ({color: MoveLimits}) gets those instead of the match-wide `settings.limits`; one
    with keeps_hash[color] true gets no `ucinewgame` between moves even with `settings.fresh_hash`.

    Never raises for engine misbehaviour: it ends the game with the offender's loss and sets `offender` so the
    caller can restart that engine. `game_id` makes python-chess send `ucinewgame` once per game."""
    board = opening.board()
    clock = Clock(settings.time_control) if settings.time_control else None
    comments: list = []
    white_scores: list = []
    fresh_hash = {color: settings.fresh_hash and not (keeps_hash or {}).get(color) for color in chess.COLORS}

    def failure(color, termination, reason):
        result = loss_for(color)
        if termination == "time forfeit" and board.has_insufficient_material(not color):
            result, reason = "1/2-1/2", reason + "; the opponent cannot mate: draw"
        return FinishedGame(opening, board, comments, result, termination, reason, color)

    while True:
        outcome = ended_by_rules(board)
        if outcome is not None:
            reason = outcome.termination.name.lower().replace("_", " ")
            return FinishedGame(opening, board, comments, outcome.result(), "normal", reason)
        verdict = adjudicated(board, white_scores, settings.adjudication)
        if verdict is not None:
            return FinishedGame(opening, board, comments, verdict[0], "adjudication", verdict[1])
        color, name = board.turn, names[board.turn]
        limits = (own_limits or {}).get(color) or settings.limits
        if clock is not None:
            clock.start_move(color)
            timeout_s = clock.remaining[color] + settings.time_margin_s
        else:
            timeout_s = (limits.movetime_s or 0.0) + settings.hang_timeout_s
        started = time.monotonic()
        try:
            played = play_within(engines[color], board, move_limit(limits, clock, color), timeout_s,
                                 game=object() if fresh_hash[color] else game_id)
        except TimeoutError:
            if clock is not None:
                return failure(color, "time forfeit", f"{name} lost on time (no move within {timeout_s:.3f} s)")
            return failure(color, "abandoned", f"{name} stalled (no move within {timeout_s:.3f} s)")
        except chess.engine.EngineTerminatedError as error:
            return failure(color, "abandoned", f"{name} crashed: {error}")
        except chess.engine.EngineError as error:
            return failure(color, "rules infraction", f"{name} sent an invalid move: {error}")
        elapsed_s = time.monotonic() - started
        if clock is not None:
            if elapsed_s > clock.remaining[color] + settings.time_margin_s:
                return failure(color, "time forfeit",
                               f"{name} lost on time ({elapsed_s:.3f} s used, {clock.remaining[color]:.3f} s left)")
            clock.finish_move(color, elapsed_s)
        if played.move is None or played.move not in board.legal_moves:
            return failure(color, "rules infraction", f"{name} played an illegal move: {played.move}")
        score = played.info.get("score")
        white_scores.append(score.white().score(mate_score=MATE_CP) if score is not None else None)
        depth = played.info.get("depth")
        comments.append(f"{score_text(score.relative if score else None)}"
                        f"{'/' + str(depth) if depth is not None else ''} {elapsed_s:.3f}s")
        board.push(played.move)
