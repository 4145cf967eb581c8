"""Time management: from the `go` clock to a soft and a hard deadline, after Stockfish's TimeManagement.

`optimum` is the time the search aims to use (it starts no new iteration past it); `maximum` is the time it must
never exceed. Both are in milliseconds from the moment `go` was read. Standard library only.
"""

from dataclasses import dataclass, field
from typing import Optional

# This program's own latency between the search noticing its deadline and `bestmove` reaching the pipe (stopping the
# numba search, joining the worker, formatting and writing), on top of the user's Move Overhead.
PYTHON_MARGIN_MS = 5
MAX_MOVE_HORIZON = 50
MIN_MAXIMUM_MS = 1
# The Move Overhead of the moves after this one is reserved for at most the horizon's moves and at most this share of
# what the clock can pay for this move, so that a large overhead (lichess-bot users set 100-1000 ms) or a short clock
# (1+0) never leaves the search nothing to think with.
RESERVE_SHARE = 0.2
# The hard deadline never passes this share of what the clock can pay for this move (the clock less its overhead).
MAXIMUM_SHARE = 0.8
# Without movestogo, the optimum of the first SAVING_PLIES plies is cut by up to EARLY_SAVING (at ply 0, shrinking
# linearly to nothing at SAVING_PLIES), so that the time saved goes to the later moves.
EARLY_SAVING = 0.45
SAVING_PLIES = 60


@dataclass
class GoParams:
    """What a `go` command asked for; None/False/empty where it said nothing. Times in milliseconds."""

    wtime: Optional[int] = None
    btime: Optional[int] = None
    winc: int = 0
    binc: int = 0
    movestogo: int = 0
    movetime: Optional[int] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    perft: Optional[int] = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: list = field(default_factory=list)

    def has_clock(self) -> bool:
        """True when a clock (wtime or btime) was given."""
        return self.wtime is not None or self.btime is not None


@dataclass(frozen=True)
class TimeBudget:
    """Milliseconds from the start of the move: aim for `optimum`, never pass `maximum`."""

    optimum: float
    maximum: float

    def deadlines(self, start_ns: int) -> tuple:
        """(soft, hard) as absolute time.monotonic_ns() values for a move that started at `start_ns`."""
        return start_ns + int(self.optimum * 1e6), start_ns + int(self.maximum * 1e6)


def plan(go: GoParams, white_to_move: bool, game_ply: int, move_overhead_ms: int, elapsed_ms: float = 0.0):
    """The TimeBudget for `go` (None when it sets no time limit: no clock and no movetime), counted from the moment
    `go` was read, when the search starts `elapsed_ms` after it (a `go` queued behind the start-up's warm-up): the
    clock is planned as it stands when the search starts, and the deadlines lie beyond `elapsed_ms`.

    With `movetime`, both deadlines are movetime less Move Overhead and the Python margin (at most half of movetime).
    With a clock (ours; only the other side's when ours is missing, as in `go wtime 100` for black), Stockfish 15.1's
    scales of the remaining time plus the increments of a horizon of at most 50 moves, less the lag (Move Overhead and
    the Python margin) of this move and of the moves after it, the latter capped at RESERVE_SHARE of the clock less
    this move's lag; without movestogo, the optimum of the first SAVING_PLIES plies is cut by up to EARLY_SAVING. The
    maximum never passes MAXIMUM_SHARE of the clock less this move's lag; a clock that cannot pay the lag gets
    MIN_MAXIMUM_MS (the search's first iteration completes all the same).
    """
    lag_ms = move_overhead_ms + PYTHON_MARGIN_MS
    if go.movetime is not None:
        usable = go.movetime - elapsed_ms - min(lag_ms, go.movetime / 2)
        usable = max(usable, MIN_MAXIMUM_MS)
        return TimeBudget(elapsed_ms + usable, elapsed_ms + usable)
    if not go.has_clock():
        return None
    mine, other = (go.wtime, go.btime) if white_to_move else (go.btime, go.wtime)
    time_ms = max(0.0, (mine if mine is not None else (other or 0)) - elapsed_ms)  # has_clock: one of them is set
    inc_ms = max(0, go.winc if white_to_move else go.binc)
    payable_ms = time_ms - lag_ms
    horizon = min(go.movestogo, MAX_MOVE_HORIZON) if go.movestogo > 0 else MAX_MOVE_HORIZON
    reserve_ms = min(lag_ms * horizon, RESERVE_SHARE * max(0.0, payable_ms))
    time_left = max(1.0, time_ms + inc_ms * (horizon - 1) - lag_ms - reserve_ms)
    if go.movestogo > 0:
        opt_scale = min((0.88 + game_ply / 116.4) / horizon, 0.88 * time_ms / time_left)
        max_scale = min(6.3, 1.5 + 0.11 * horizon)
    else:
        opt_scale = min(0.0120 + (game_ply + 3.0) ** 0.45 * 0.0039, 0.2 * time_ms / time_left)
        opt_scale *= 1.0 - EARLY_SAVING * max(0, SAVING_PLIES - game_ply) / SAVING_PLIES
        max_scale = min(7.0, 4.0 + game_ply / 12.0)
    optimum = opt_scale * time_left
    maximum = max(min(MAXIMUM_SHARE * payable_ms, max_scale * optimum), MIN_MAXIMUM_MS)
    return TimeBudget(elapsed_ms + min(optimum, maximum), elapsed_ms + maximum)


# Stability scaling of the optimum time, after Stockfish's time management: factors applied to `optimum` when the
# search decides whether to start another iteration.
CHANGE_DECAY = 0.5          # best-move changes of earlier iterations count half as much each iteration
CHANGE_WEIGHT = 1.2         # each (decayed) best-move change makes the search think this much longer
STABLE_START = 1.25         # factor of a best move that just changed ...
STABLE_STEP = 0.1           # ... shrinking by this much per iteration it stays the best ...
STABLE_MIN = 0.55           # ... down to this
FALL_SCALE = 150.0          # a score this many centipawns below that of three iterations before doubles ...
FALL_MIN, FALL_MAX = 0.75, 1.6   # ... within these bounds
SCALE_MIN, SCALE_MAX = 0.4, 2.5
SCALE_FROM_DEPTH = 4        # iterations before this depth are too noisy to judge stability


class StabilityScale:
    """The factor by which to scale the optimum time after each completed iteration: more time when the best move
    keeps changing or the score falls, less when the best move has stayed the same for several iterations."""

    def __init__(self):
        self.changes = 0.0
        self.stable = 0
        self.best_move = None
        self.scores = []

    def update(self, depth: int, best_move: int, score: int) -> float:
        """Record the result of the iteration of `depth` (best move, centipawn score) and return the factor."""
        changed = self.best_move is not None and best_move != self.best_move
        self.changes = self.changes * CHANGE_DECAY + (1.0 if changed else 0.0)
        self.stable = 0 if changed else self.stable + 1
        self.best_move = best_move
        self.scores.append(score)
        if depth < SCALE_FROM_DEPTH:
            return 1.0
        instability = 1.0 + CHANGE_WEIGHT * self.changes
        stability = max(STABLE_MIN, STABLE_START - STABLE_STEP * self.stable)
        reference = self.scores[-4] if len(self.scores) >= 4 else self.scores[0]
        fall = min(max(1.0 + (reference - score) / FALL_SCALE, FALL_MIN), FALL_MAX)
        return min(max(instability * stability * fall, SCALE_MIN), SCALE_MAX)
